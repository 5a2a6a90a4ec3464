import { map } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PipelineOperators } from '../../../src/http/pipelineOperators.js';
import { loadOperatorsModule } from '../../../src/loadOperatorsModule.js';
import { createRun, post } from '../../support/runsClient.js';
import { ScriptedAgent } from '../../support/scriptedAgent.js';
import { sseEvents } from '../../support/sseEvents.js';
import { startApp, type TestApp } from '../../support/startApp.js';

const agent = new ScriptedAgent([
  { event: { type: 'text', delta: 'hello ' } },
  { event: { type: 'text', delta: 'world' } },
  { event: { type: 'finish', reason: 'stop' } },
]);

/** A chunk operator of each protocol's own, beside the shouting module's `events` operator. */
const chunkOperators: PipelineOperators = {
  responseEvents: [
    () => map((event) => (event.type === 'response.output_text.delta' ? { ...event, delta: `${String(event.delta)}!` } : event)),
  ],
  runEvents: [() => map((event) => (event.type === 'message.delta' ? { ...event, delta: `${event.delta}!` } : event))],
};

async function dataOf(response: Response, type?: string): Promise<Record<string, unknown>[]> {
  const events: Record<string, unknown>[] = [];
  for await (const { event, data } of sseEvents(response.body!)) {
    if (data === '[DONE]') break;
    if (type === undefined || event === type) events.push(JSON.parse(data) as Record<string, unknown>);
  }
  return events;
}

describe('user operators from one module apply to every API', () => {
  let gateway: TestApp;
  beforeAll(async () => {
    // Loaded as RXGATE_OPERATORS_MODULE is: the module upper-cases every text delta.
    const shout = await loadOperatorsModule('test/fixtures/shoutOperators.mjs');
    gateway = await startApp(agent, {}, { operators: { ...shout, ...chunkOperators } });
  });
  afterAll(() => gateway.close());

  it('a chat stream: its content deltas', async () => {
    const response = await post(`${gateway.url}/v1/chat/completions`, { stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const chunks = (await dataOf(response)) as { choices: { delta: { content?: string } }[] }[];

    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('HELLO WORLD');
  });

  it("a streaming response: its response.output_text.delta events, each through the Responses API's own chunk operators too", async () => {
    const response = await post(`${gateway.url}/v1/responses`, { stream: true, input: 'hi' });
    const deltas = await dataOf(response, 'response.output_text.delta');

    expect(deltas.map((event) => event.delta)).toEqual(['HELLO !', 'WORLD!']);
  });

  it('a response answered whole: its output text', async () => {
    const response = await post(`${gateway.url}/v1/responses`, { input: 'hi' });
    const body = (await response.json()) as { output: { content: { text: string }[] }[] };

    expect(body.output[0]!.content[0]!.text).toBe('HELLO WORLD');
  });

  it("a background response: the events its followers read, each through the Responses API's chunk operators", async () => {
    const created = (await (await post(`${gateway.url}/v1/responses`, { background: true, input: 'hi' })).json()) as { id: string };
    const response = await fetch(`${gateway.url}/v1/responses/${created.id}?stream=true`);
    const deltas = await dataOf(response, 'response.output_text.delta');

    expect(deltas.map((event) => event.delta)).toEqual(['HELLO !', 'WORLD!']);
  });

  it("a run: its message.delta events, each through the Runs API's own chunk operators too", async () => {
    const id = await createRun(gateway.url);
    const response = await fetch(`${gateway.url}/v1/runs/${id}/events`);
    const deltas = [];
    for await (const { event, data } of sseEvents(response.body!)) {
      if (event === 'message.delta') deltas.push((JSON.parse(data) as { delta: string }).delta);
      if (event === 'run.completed') break;
    }

    expect(deltas).toEqual(['HELLO !', 'WORLD!']);
  });
});
