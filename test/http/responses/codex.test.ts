import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCodex } from '../../support/codex.js';
import { answer, endlessAnswer, toolCalls, type UpstreamScript } from '../../support/scriptedUpstream.js';
import { useLlmGateway } from '../../support/startLlmGateway.js';

const gateways = useLlmGateway();
const codex = useCodex();

interface SentMessage {
  readonly role: string;
  readonly content: unknown;
  readonly tool_call_id?: string;
}

/** What reached rxgate: each request's method and URL. */
async function gatewayFor(scripts: readonly UpstreamScript[]) {
  const { upstream, gateway } = await gateways.start(scripts);
  const received: string[] = [];
  gateway.server.on('request', (req: { method: string; originalUrl: string }) => received.push(`${req.method} ${req.originalUrl}`));
  return { upstream, gateway, received };
}

const textOf = (content: unknown) => (typeof content === 'string' ? content : JSON.stringify(content));

describe('Codex, unmodified (no --disable, no -c about tools), over SSE', () => {
  it('answers a plain prompt through POST /v1/responses, its namespace and hosted tools taken without a 400', async () => {
    const { upstream, gateway, received } = await gatewayFor([answer('Hello from rxgate')]);
    const { code, answer: said, output } = await codex.home(gateway.url).run(['exec', '--skip-git-repo-check', 'Say hello']).exited;

    expect({ code, said }, output).toEqual({ code: 0, said: 'Hello from rxgate' });
    expect(received).toEqual(['POST /v1/responses']);
    const sent = (await upstream.request(0)).body as { tools: { function: { name: string } }[] };
    expect(sent.tools.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(['exec_command', 'spawn_agent']));
  }, 60_000);

  it('runs its own shell tool when the model calls it, and sends the output back', async () => {
    const shell = toolCalls({ id: 'call_1', name: 'exec_command', fragments: ['{"cmd":"echo rxgate-', '$((6*7))"}'] });
    const { upstream, gateway } = await gatewayFor([shell, answer('The shell said 42')]);
    const { code, answer: said, output } = await codex.home(gateway.url).run(['exec', '--skip-git-repo-check', 'Run the command']).exited;

    expect({ code, said }, output).toEqual({ code: 0, said: 'The shell said 42' });
    const results = ((await upstream.request(1)).body.messages as SentMessage[]).filter((message) => message.role === 'tool');
    expect(results).toEqual([{ role: 'tool', tool_call_id: 'call_1', content: expect.stringContaining('rxgate-42') }]);
  }, 60_000);

  it('resumes its last session with `exec resume --last`, the first turn in the history it sends', async () => {
    const { upstream, gateway } = await gatewayFor([answer('The first answer'), answer('The second answer')]);
    const home = codex.home(gateway.url);
    expect((await home.run(['exec', '--skip-git-repo-check', 'First question']).exited).code).toBe(0);
    const { code, answer: said, output } = await home.run(['exec', '--skip-git-repo-check', 'resume', '--last', 'Second question']).exited;

    expect({ code, said }, output).toEqual({ code: 0, said: 'The second answer' });
    const history = ((await upstream.request(1)).body.messages as SentMessage[]).map(
      (message) => `${message.role}: ${textOf(message.content)}`,
    );
    expect(history.findIndex((line) => line.includes('First question'))).toBeLessThan(
      history.findIndex((line) => line.includes('The first answer')),
    );
    expect(history.at(-1)).toContain('Second question');
  }, 60_000);

  it('asks the upstream for its --output-schema as a json_schema response format', async () => {
    const { upstream, gateway } = await gatewayFor([answer('{"answer":42}')]);
    const home = codex.home(gateway.url);
    const schema = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'], additionalProperties: false };
    writeFileSync(join(home.path, 'schema.json'), JSON.stringify(schema));
    const {
      code,
      answer: said,
      output,
    } = await home.run(['exec', '--skip-git-repo-check', '--output-schema', 'schema.json', 'Answer']).exited;

    expect({ code, said }, output).toEqual({ code: 0, said: '{"answer":42}' });
    const format = (await upstream.request(0)).body.response_format as { type: string; json_schema: { schema: unknown } };
    expect(format).toMatchObject({ type: 'json_schema', json_schema: { schema } });
  }, 60_000);

  it('closes the upstream request when it is stopped mid-answer (SIGINT)', async () => {
    const { upstream, gateway } = await gatewayFor([endlessAnswer('more ')]);
    const { child, exited } = codex.home(gateway.url).run(['exec', '--skip-git-repo-check', 'Write forever']);
    const request = await upstream.request(0);
    child.kill('SIGINT');
    const closed = await request.closed;
    await exited;

    expect(closed.finished).toBe(false);
    expect(upstream.requests).toHaveLength(1);
  }, 60_000);
});
