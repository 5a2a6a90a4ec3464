import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startCli, type CliProcess } from '../../support/startCli.js';

// Issue 28: the real exporter path, from the real CLI process to an OTLP/HTTP receiver, flushed on SIGTERM.

vi.setConfig({ testTimeout: 60_000 });

interface Export {
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** A tiny OTLP/HTTP receiver on 127.0.0.1, port 0: it keeps what is POSTed to /v1/traces. */
async function startReceiver() {
  const exports: Export[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') exports.push({ headers: req.headers, body: Buffer.concat(parts) });
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/json' }).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

let cli: CliProcess | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
afterEach(async () => {
  if (cli && cli.child.exitCode === null) cli.child.kill('SIGKILL');
  await receiver?.close();
  cli = undefined;
  receiver = undefined;
});

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('tracing on in the real CLI', () => {
  it.each(['http/json', 'http/protobuf'])(
    'exports its spans over OTLP %s, and flushes what is still batched on SIGTERM before it exits',
    async (protocol) => {
      receiver = await startReceiver();
      cli = await startCli({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol,
        OTEL_SERVICE_NAME: 'rxgate-under-test',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=ci',
        OTEL_TRACES_SAMPLER: 'always_on',
      });
      const response = await fetch(`${cli.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` },
        body: JSON.stringify({ stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(await response.text()).toContain('data: [DONE]');
      // Batched (every 5 s): nothing is exported yet, so what arrives below is the shutdown's flush.
      expect(receiver.exports).toEqual([]);

      cli.child.kill('SIGTERM');
      expect(await cli.exited).toBe(0);

      const body = Buffer.concat(receiver.exports.map((sent) => sent.body));
      expect(receiver.exports[0]!.headers['content-type']).toBe(protocol === 'http/json' ? 'application/json' : 'application/x-protobuf');
      // Protobuf keeps strings as UTF-8 bytes, so both encodings are searched the same way.
      for (const text of ['rxgate-under-test', 'deployment.environment.name', 'POST /v1/chat/completions', 'invoke_agent'])
        expect(body.includes(text), text).toBe(true);
      if (protocol === 'http/json') {
        const spans = receiver.exports.flatMap((sent) =>
          (
            JSON.parse(sent.body.toString()) as { resourceSpans: { scopeSpans: { spans: { traceId: string; name: string }[] }[] }[] }
          ).resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans)),
        );
        expect(spans.map((span) => span.name).sort()).toEqual(['POST /v1/chat/completions', 'invoke_agent']);
        expect(spans.every((span) => span.traceId === TRACE_ID)).toBe(true);
      } else expect(body.includes(Buffer.from(TRACE_ID, 'hex'))).toBe(true);
    },
  );
});
