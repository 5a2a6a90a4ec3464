import OpenAI from 'openai';
import { zodResponseFormat, zodTextFormat } from 'openai/helpers/zod';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { followRun } from '../../support/followRun.js';
import { createRun, post } from '../../support/runsClient.js';
import { answer, frames, type UpstreamScript } from '../../support/scriptedUpstream.js';
import { useLlmGateway } from '../../support/startLlmGateway.js';

// A model's refusal (OpenAI streams it as `delta.refusal`, with structured outputs above all) through
// both APIs, read by the official openai SDK as it reads OpenAI's: never an empty answer.

const gateways = useLlmGateway();
const clientFor = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0 });

const refused = (): UpstreamScript => ({
  steps: [
    frames.role(),
    frames.refusal("I'm sorry, "),
    frames.refusal('I cannot help with that.'),
    frames.finish('stop'),
    frames.usage(9, 6),
    frames.done(),
  ],
});
const REFUSAL = "I'm sorry, I cannot help with that.";
const Recipe = z.object({ steps: z.array(z.string()) });
const messages = [{ role: 'user' as const, content: 'A recipe for trouble' }];

describe('a refusal of the model', () => {
  it('is message.refusal of a chat completion, streamed as refusal deltas, with content null', async () => {
    const { gateway } = await gateways.start([refused(), refused(), refused()]);
    const client = clientFor(gateway.url);
    const parsed = await client.chat.completions.parse({
      model: 'rxgate-agent',
      messages,
      response_format: zodResponseFormat(Recipe, 'recipe'),
    });
    const streamed = await client.chat.completions
      .stream({ model: 'rxgate-agent', messages, response_format: zodResponseFormat(Recipe, 'recipe') })
      .finalChatCompletion();
    const deltas = [];
    for await (const chunk of await client.chat.completions.create({ model: 'rxgate-agent', messages, stream: true })) {
      deltas.push(chunk.choices[0]?.delta);
    }

    expect(parsed.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: null, refusal: REFUSAL, parsed: null } });
    expect(streamed.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: null, refusal: REFUSAL, parsed: null } });
    expect(deltas.filter((delta) => delta?.refusal !== undefined)).toEqual([
      { refusal: "I'm sorry, " },
      { refusal: 'I cannot help with that.' },
    ]);
  });

  it('is a refusal content part of the response message, streamed as response.refusal events, and carried into the next turn', async () => {
    const { upstream, gateway } = await gateways.start([refused(), refused(), answer('Fine.')]);
    const client = clientFor(gateway.url);
    const response = await client.responses.parse({
      model: 'rxgate-agent',
      input: 'A recipe for trouble',
      text: { format: zodTextFormat(Recipe, 'recipe') },
    });
    const events: ResponseStreamEvent[] = [];
    for await (const event of await client.responses.create({ model: 'rxgate-agent', input: 'A recipe for trouble', stream: true })) {
      events.push(event);
    }

    await client.responses.create({ model: 'rxgate-agent', previous_response_id: response.id, input: 'Why not?' });

    expect(response.status).toBe('completed');
    expect(response.output_parsed).toBeNull();
    expect(response.output).toMatchObject([{ type: 'message', status: 'completed', content: [{ type: 'refusal', refusal: REFUSAL }] }]);
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.refusal.delta',
      'response.refusal.delta',
      'response.refusal.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.find((event) => event.type === 'response.refusal.done')).toMatchObject({
      refusal: REFUSAL,
      output_index: 0,
      content_index: 0,
    });
    expect(events.find((event) => event.type === 'response.content_part.added')).toMatchObject({ part: { type: 'refusal', refusal: '' } });
    // The follow-up's model reads what it said: the refusal, not an empty answer.
    expect((upstream.requests[2]!.body.messages as unknown[]).at(-2)).toEqual({ role: 'assistant', content: REFUSAL });
  });

  it('is the refusal of a run, streamed as refusal.delta events, apart from its empty output, and carried into its conversation', async () => {
    const { gateway } = await gateways.start([refused(), answer('Fine.')]);
    const conversation = ((await (await post(`${gateway.url}/v1/conversations`, {})).json()) as { id: string }).id;
    const start = await post(`${gateway.url}/v1/runs`, { input: 'A recipe for trouble', conversation });
    const runId = ((await start.json()) as { run_id: string }).run_id;
    const events = await (await followRun(gateway.url, runId)).rest();
    const run = await (await fetch(`${gateway.url}/v1/runs/${runId}`)).json();

    expect(events.filter((event) => event.event === 'refusal.delta').map((event) => JSON.parse(event.data) as unknown)).toEqual([
      { type: 'refusal.delta', delta: "I'm sorry, " },
      { type: 'refusal.delta', delta: 'I cannot help with that.' },
    ]);
    expect(events.some((event) => event.event === 'message.delta')).toBe(false);
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ type: 'run.completed', output: '', refusal: REFUSAL });
    expect(run).toMatchObject({ status: 'completed', output: '', refusal: REFUSAL });
    // A run that did not refuse says so with null.
    await (await followRun(gateway.url, await createRun(gateway.url))).rest();
    const runs = await (await fetch(`${gateway.url}/v1/runs?limit=1`)).json();
    expect(runs).toMatchObject({ data: [{ output: 'Fine.', refusal: null }] });
    const items = (await (await fetch(`${gateway.url}/v1/conversations/${conversation}/items?order=asc`)).json()) as { data: unknown[] };
    expect(items.data.at(-1)).toMatchObject({ role: 'assistant', content: [{ text: REFUSAL }] });
  });
});
