import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answer, toolCalls } from '../../support/scriptedUpstream.js';
import { useRecordingGateway } from '../../support/recordingGateway.js';

/** Claude Code's native binary, from its platform package (its wrapper's postinstall, which copies it, does not run here). */
const CLAUDE = createRequire(import.meta.url).resolve(`@anthropic-ai/claude-code-${process.platform}-${process.arch}/claude`);

const gateways = useRecordingGateway();
const homes: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/** `claude <args>` against rxgate, unmodified: a temporary HOME, no traffic but rxgate's. */
function claude(gatewayUrl: string, args: readonly string[]) {
  const home = mkdtempSync(join(tmpdir(), 'rxgate-claude-home-'));
  homes.push(home);
  const child = spawn(CLAUDE, args, {
    cwd: home,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      ANTHROPIC_BASE_URL: gatewayUrl,
      ANTHROPIC_API_KEY: 'sk-ant-unused',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr!.on('data', (data: Buffer) => (output += data.toString()));
  const exited = once(child, 'exit').then(([code]) => ({ code: code as number | null, output }));
  return { child, exited };
}

describe('Claude Code, unmodified, against rxgate', () => {
  it('answers a plain prompt through one POST /v1/messages?beta=true, with its system role message kept as a system message', async () => {
    const { upstream, gateway, received } = await gateways.start([answer('Hello from rxgate')]);
    const { code, output } = await claude(gateway.url, ['-p', 'Say hello']).exited;

    expect({ code, output: output.trim() }).toEqual({ code: 0, output: 'Hello from rxgate' });
    expect(received).toContain('POST /v1/messages?beta=true');
    const sent = (await upstream.request(0)).body as { messages: { role: string }[]; tools: unknown[] };
    expect(sent.messages.map((message) => message.role)).toEqual(['system', 'user', 'system']);
    expect(sent.tools.length).toBeGreaterThan(2);
  }, 60_000);

  it("runs its own Bash tool when the model calls it, and sends the command's output back", async () => {
    const bash = toolCalls({
      id: 'toolu_1',
      name: 'Bash',
      fragments: ['{"command":"echo rxgate-$((6*7))",', '"description":"Print a number"}'],
    });
    const { upstream, gateway } = await gateways.start([bash, answer('The shell said 42')]);
    const { code, output } = await claude(gateway.url, ['-p', 'Run the command', '--allowedTools', 'Bash']).exited;

    expect({ code, output: output.trim() }).toEqual({ code: 0, output: 'The shell said 42' });
    const results = ((await upstream.request(1)).body.messages as { role: string; tool_call_id?: string; content: unknown }[]).filter(
      (message) => message.role === 'tool',
    );
    expect(results).toEqual([{ role: 'tool', tool_call_id: 'toolu_1', content: expect.stringContaining('rxgate-42') }]);
  }, 60_000);

  it('shows real counts in /context, from count_tokens, without calling the upstream', async () => {
    const { upstream, gateway, received } = await gateways.start([answer('unused')]);
    const { code, output } = await claude(gateway.url, ['-p', '/context']).exited;

    expect(code).toBe(0);
    expect(received.filter((line) => line === 'POST /v1/messages/count_tokens?beta=true').length).toBeGreaterThan(1);
    const systemTools = /\| System tools \| ([\d.]+)(k?) \|/.exec(output);
    expect(systemTools, output).not.toBeNull();
    expect(Number(systemTools![1]) * (systemTools![2] === 'k' ? 1000 : 1)).toBeGreaterThan(500);
    expect(upstream.requests).toHaveLength(0);
  }, 60_000);

  it('closes the upstream request when it is stopped mid-answer (SIGINT)', async () => {
    const { closed, requests } = await gateways.interruptMidAnswer((url) => claude(url, ['-p', 'Write forever']));

    expect(closed.finished).toBe(false);
    expect(requests).toBe(1);
  }, 60_000);
});
