import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { ConfigError } from '../../../src/errors/ConfigError.js';
import { startTracing } from '../../../src/tracing/startTracing.js';
import { NO_TRACING } from '../../../src/tracing/Tracing.js';

// Issue 28: tracing off costs nothing: the OpenTelemetry SDK is not even loaded.

const SRC = resolve(import.meta.dirname, '../../../src');

/** The packages `entry` loads through static imports (dynamic `import()`s left out), following src/ files. */
function staticPackages(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, target] of text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)) {
      if (target!.startsWith('.')) visit(resolve(dirname(file), target!.replace(/\.js$/, '.ts')));
      else packages.add(target!);
    }
  };
  visit(resolve(SRC, entry));
  return packages;
}

describe('tracing off', () => {
  it('is what the default settings give: NO_TRACING, nothing started', async () => {
    expect(await startTracing(loadConfig({}))).toBe(NO_TRACING);
  });

  it.each(['cli.ts', 'index.ts'])('loads no OpenTelemetry package from %s but the API (whose no-op it uses)', (entry) => {
    const otel = [...staticPackages(entry)].filter((name) => name.startsWith('@opentelemetry/'));
    expect(otel).toEqual(['@opentelemetry/api']);
  });

  it('reaches the SDK only through startTracing, once an endpoint is set', () => {
    const sdk = [...staticPackages('tracing/createTracing.ts')].filter((name) => name.startsWith('@opentelemetry/'));
    expect(sdk).toEqual(expect.arrayContaining(['@opentelemetry/sdk-trace-base', '@opentelemetry/core']));
  });
});

describe('the tracing settings', () => {
  it('refuse OTEL_RESOURCE_ATTRIBUTES with a value that is not percent-encoded, instead of a URIError at start-up', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_RESOURCE_ATTRIBUTES: 'team=ops,share=100%' };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/OTEL_RESOURCE_ATTRIBUTES=.*percent-encoded/);
  });

  it.each([
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'localhost:4318'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'grpc://127.0.0.1:4317'],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'file:///tmp/traces'],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'ftp://collector/v1/traces'],
  ])('refuse %s=%s, which is not an http:// or https:// URL', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(`${name}=${JSON.stringify(value)}: must be an http:// or https:// URL`);
  });

  it('take http:// and https:// endpoints', () => {
    const config = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector.example/v1/traces',
    });
    expect([config.otelEndpoint, config.otelTracesEndpoint]).toEqual(['http://127.0.0.1:4318', 'https://collector.example/v1/traces']);
  });
});
