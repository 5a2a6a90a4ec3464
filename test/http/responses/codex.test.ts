import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCodex } from '../../support/codex.js';
import { answer, toolCalls } from '../../support/scriptedUpstream.js';
import { useRecordingGateway } from '../../support/recordingGateway.js';

const gateways = useRecordingGateway();
const codex = useCodex();

interface SentMessage {
  readonly role: string;
  readonly content: unknown;
  readonly tool_call_id?: string;
}

const textOf = (content: unknown) => (typeof content === 'string' ? content : JSON.stringify(content));

/** Codex over SSE (`POST /v1/responses`), and with `supports_websockets = true` over WebSocket, where it warms up with `generate: false` and chains each turn by `previous_response_id` with `store: false`. */
const TRANSPORTS = [
  { over: 'SSE', websockets: false, route: 'POST /v1/responses' },
  { over: 'WebSocket', websockets: true, route: 'UPGRADE GET /v1/responses' },
] as const;

describe.each(TRANSPORTS)('Codex, unmodified (no --disable, no -c about tools), over $over', ({ websockets, route }) => {
  const home = (url: string) => codex.home(url, { websockets });

  it('answers a plain prompt, its namespace and hosted tools taken without a 400', async () => {
    const { upstream, gateway, received } = await gateways.start([answer('Hello from rxgate')]);
    const { code, answer: said, output } = await home(gateway.url).run(['exec', '--skip-git-repo-check', 'Say hello']).exited;

    expect({ code, said }, output).toEqual({ code: 0, said: 'Hello from rxgate' });
    expect([...new Set(received)]).toEqual([route]);
    const sent = (await upstream.request(0)).body as { tools: { function: { name: string } }[] };
    expect(sent.tools.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(['exec_command', 'spawn_agent']));
  }, 60_000);

  it('runs its own shell tool when the model calls it, and sends the output back', async () => {
    const shell = toolCalls({ id: 'call_1', name: 'exec_command', fragments: ['{"cmd":"echo rxgate-', '$((6*7))"}'] });
    const { upstream, gateway } = await gateways.start([shell, answer('The shell said 42')]);
    const { code, answer: said, output } = await home(gateway.url).run(['exec', '--skip-git-repo-check', 'Run the command']).exited;

    expect({ code, said }, output).toEqual({ code: 0, said: 'The shell said 42' });
    const results = ((await upstream.request(1)).body.messages as SentMessage[]).filter((message) => message.role === 'tool');
    expect(results).toEqual([{ role: 'tool', tool_call_id: 'call_1', content: expect.stringContaining('rxgate-42') }]);
  }, 60_000);

  it('resumes its last session with `exec resume --last`, the first turn in the history it sends', async () => {
    const { upstream, gateway, received } = await gateways.start([answer('The first answer'), answer('The second answer')]);
    const codexHome = home(gateway.url);
    expect((await codexHome.run(['exec', '--skip-git-repo-check', 'First question']).exited).code).toBe(0);
    const {
      code,
      answer: said,
      output,
    } = await codexHome.run(['exec', '--skip-git-repo-check', 'resume', '--last', 'Second question']).exited;

    expect({ code, said }, output).toEqual({ code: 0, said: 'The second answer' });
    // Each `codex exec` its own process: over WebSocket, a connection of its own too.
    expect(received.filter((line) => line === route).length).toBeGreaterThanOrEqual(2);
    const history = ((await upstream.request(1)).body.messages as SentMessage[]).map(
      (message) => `${message.role}: ${textOf(message.content)}`,
    );
    expect(history.findIndex((line) => line.includes('First question'))).toBeLessThan(
      history.findIndex((line) => line.includes('The first answer')),
    );
    expect(history.at(-1)).toContain('Second question');
  }, 60_000);

  it('asks the upstream for its --output-schema as a json_schema response format', async () => {
    const { upstream, gateway } = await gateways.start([answer('{"answer":42}')]);
    const codexHome = home(gateway.url);
    const schema = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'], additionalProperties: false };
    writeFileSync(join(codexHome.path, 'schema.json'), JSON.stringify(schema));
    const {
      code,
      answer: said,
      output,
    } = await codexHome.run(['exec', '--skip-git-repo-check', '--output-schema', 'schema.json', 'Answer']).exited;

    expect({ code, said }, output).toEqual({ code: 0, said: '{"answer":42}' });
    const format = (await upstream.request(0)).body.response_format as { type: string; json_schema: { schema: unknown } };
    expect(format).toMatchObject({ type: 'json_schema', json_schema: { schema } });
  }, 60_000);

  it('closes the upstream request when it is stopped mid-answer (SIGINT)', async () => {
    const { closed, requests } = await gateways.interruptMidAnswer((url) =>
      home(url).run(['exec', '--skip-git-repo-check', 'Write forever']),
    );

    expect(closed.finished).toBe(false);
    expect(requests).toBe(1);
  }, 60_000);
});
