import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readUntil } from '../../support/readSse.js';
import { startCli } from '../../support/startCli.js';

describe('the packaged server (node dist/cli.js)', () => {
  it('starts on its defaults with the offline agent and says so', async () => {
    // In a directory of its own, where its default data directory (`data`) is made.
    const cwd = mkdtempSync(join(tmpdir(), 'rxgate-defaults-'));
    const cli = await startCli({}, [], undefined, cwd);
    try {
      expect(cli.output()).toContain('offline agent');
      expect(cli.output()).toContain('RXGATE_UPSTREAM_URL');
      expect(await (await fetch(`${cli.url}/health`)).json()).toEqual({ status: 'ok' });
      expect(existsSync(join(cwd, 'data'))).toBe(true);
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('refuses a bad value with a message naming it, and exits non-zero', async () => {
    await expect(startCli({ RXGATE_PORT: 'abc' })).rejects.toThrow(/RXGATE_PORT="abc"/);
    await expect(startCli({ RXGATE_HOST: '0.0.0.0' })).rejects.toThrow(/refusing to listen on 0\.0\.0\.0 without an API key/);
    await expect(startCli({ RXGATE_DATA_DIR: '/dev/null/rxgate' })).rejects.toThrow(
      /RXGATE_DATA_DIR="\/dev\/null\/rxgate": cannot open the store there/,
    );
  });

  it('applies the operators of RXGATE_OPERATORS_MODULE to every response', async () => {
    const cli = await startCli({ RXGATE_OPERATORS_MODULE: 'test/fixtures/shoutOperators.mjs' });
    try {
      const response = await fetch(`${cli.url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ messages: [{ role: 'user', content: 'What is 2+3?' }] }),
      });
      const content = ((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content;

      expect(content).toContain('5');
      expect(content).toBe(content.toUpperCase());
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  });

  it('on SIGTERM with a stream in flight: ends the stream after the grace period and exits 0', async () => {
    const cli = await startCli({ RXGATE_SHUTDOWN_GRACE_MS: '100' });
    const response = await fetch(`${cli.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ stream: true, messages: [{ role: 'user', content: 'Tell me a long story' }] }),
    });
    await readUntil(response.body!, (text) => text.includes('"content"'));
    cli.child.kill('SIGTERM');
    const rest = await readUntil(response.body!, () => false);

    expect(await cli.exited).toBe(0);
    expect(rest).toContain('Server shutting down');
    expect(rest).not.toContain('[DONE]');
  });
});
