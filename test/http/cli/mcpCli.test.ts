import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  createScratch,
  eventually,
  fixtureStdioEntry,
  isAlive,
  readRecords,
  waitForRecord,
  writeMcpConfig,
} from '../../support/mcpFixture.js';
import { answer, createScriptedUpstream, frames, type UpstreamScript } from '../../support/scriptedUpstream.js';
import { startCli } from '../../support/startCli.js';

// Each test starts MCP server processes; on a loaded machine that takes seconds, not milliseconds.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const scratch = createScratch();
afterAll(() => scratch.cleanup());

function callsTool(name: string, args: string): UpstreamScript {
  return {
    steps: [
      frames.role(),
      frames.toolCallStart(0, 'call_1', name),
      frames.toolCallArguments(0, args),
      frames.finish('tool_calls'),
      frames.done(),
    ],
  };
}

const chat = (url: string, stream: boolean) =>
  fetch(`${url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ stream, messages: [{ role: 'user', content: 'go' }] }) });

describe('the packaged server with RXGATE_MCP_CONFIG', () => {
  it('mounts the servers, runs their tools, and on SIGTERM cancels a running call and leaves no child', async () => {
    const logA = scratch.path('a.log');
    const logB = scratch.path('b.log');
    const config = writeMcpConfig(scratch.path('mcp.json'), { a: fixtureStdioEntry(logA), b: fixtureStdioEntry(logB) });
    const upstream = await createScriptedUpstream([
      callsTool('a__echo', '{"text":"from mcp"}'),
      answer('done'),
      callsTool('b__slow', '{}'),
      answer('never'),
    ]);
    const cli = await startCli({
      RXGATE_UPSTREAM_URL: upstream.baseUrl,
      RXGATE_UPSTREAM_MODEL: 'up',
      RXGATE_MCP_CONFIG: config,
      RXGATE_SHUTDOWN_GRACE_MS: '100',
      RXGATE_DATA_DIR: scratch.path('data'),
      RXGATE_LOG_LEVEL: 'info',
    });
    try {
      // Not GET /health/ready: its upstream probe would take one of the upstream's scripted answers.
      await eventually(() => (cli.output().match(/"msg":"mcp server ready"/g) ?? []).length === 2, 15_000, 'both servers ready');
      const pids = [logA, logB].map((log) => readRecords(log).find((record) => record.event === 'started')!.pid);
      expect(pids.every(isAlive)).toBe(true);

      const completion = (await (await chat(cli.url, false)).json()) as { choices: { message: { content: string } }[] };
      expect(completion.choices[0]!.message.content).toBe('done');
      expect((upstream.requests[1]!.body.messages as { content: string }[]).at(-1)).toMatchObject({ role: 'tool', content: 'from mcp' });
      expect((upstream.requests[0]!.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name)).toContain('b__slow');

      const streaming = await chat(cli.url, true);
      const call = await waitForRecord(logB, (record) => record.event === 'call_started' && record.name === 'slow');
      cli.child.kill('SIGTERM');

      expect(await cli.exited).toBe(0);
      await streaming.text().catch(() => '');
      expect(
        readRecords(logB).some((record) => record.method === 'notifications/cancelled' && record.params?.requestId === call.requestId),
      ).toBe(true);
      expect(pids.filter(isAlive)).toEqual([]);
    } finally {
      if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
      await upstream.close();
    }
  });

  it('refuses a bad MCP config file with a message naming the file, the server and the field', async () => {
    const config = writeMcpConfig(scratch.path('bad.json'), { files: { command: 'npx', args: '-y server' } });

    await expect(startCli({ RXGATE_MCP_CONFIG: config })).rejects.toThrow(
      /RXGATE_MCP_CONFIG=.*bad\.json: mcpServers\.files\.args: Invalid input: expected array, received string/,
    );
  });
});
