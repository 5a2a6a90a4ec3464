import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { startCli } from '../../support/startCli.js';

const KEY = 'rxgate-test-key-0123456789';

describe('RXGATE_API_KEY', () => {
  it.each([
    ['spaces', '   '],
    ['a tab and a newline', '\t\n'],
  ])('refuses a key of only whitespace (%s), naming the variable and why, without echoing it', (_name, key) => {
    expect(() => loadConfig({ RXGATE_API_KEY: key })).toThrow(
      /RXGATE_API_KEY=\(\d+ characters, not shown\): is only whitespace, which would pass for a key/,
    );
  });

  it('refuses a key shorter than 16 characters, without echoing it', () => {
    let message = '';
    try {
      loadConfig({ RXGATE_API_KEY: 'short-secret' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/RXGATE_API_KEY=\(12 characters, not shown\): is shorter than 16 characters/);
    expect(message).not.toContain('short-secret');
  });

  it('takes a key of 16 characters or more, trimmed of the newline a key file ends with', () => {
    expect(loadConfig({ RXGATE_API_KEY: 'k'.repeat(16) }).apiKey).toBe('k'.repeat(16));
    expect(loadConfig({ RXGATE_API_KEY: `${KEY}\n` }).apiKey).toBe(KEY);
    expect(loadConfig({}, ['--api-key', KEY]).apiKey).toBe(KEY);
  });

  it('leaves auth off when unset or empty', () => {
    expect(loadConfig({}).apiKey).toBeUndefined();
    expect(loadConfig({ RXGATE_API_KEY: '' }).apiKey).toBeUndefined();
  });

  it('stops the packaged server from listening beyond loopback behind a blank key', async () => {
    const outcome = await startCli({ RXGATE_HOST: '0.0.0.0', RXGATE_API_KEY: '   ' }).then(
      (cli) => {
        cli.child.kill('SIGKILL');
        return `listening on ${cli.url}`;
      },
      (error: Error) => error.message,
    );
    expect(outcome).toMatch(/RXGATE_API_KEY=\(3 characters, not shown\): is only whitespace/);
  });
});

describe('RXGATE_UPSTREAM_API_KEY', () => {
  it('refuses a key of only whitespace', () => {
    expect(() => loadConfig({ RXGATE_UPSTREAM_API_KEY: '  ' })).toThrow(
      /RXGATE_UPSTREAM_API_KEY=\(2 characters, not shown\): is only whitespace/,
    );
  });

  it('takes whatever else the upstream issued, short or not', () => {
    expect(loadConfig({ RXGATE_UPSTREAM_API_KEY: 'sk-1' }).upstreamApiKey).toBe('sk-1');
  });
});
