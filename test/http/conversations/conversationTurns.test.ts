import OpenAI, { ConflictError } from 'openai';
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentError } from '../../../src/errors/AgentError.js';
import type { ConversationItem } from '../../../src/store/ConversationStore.js';
import { followRun } from '../../support/followRun.js';
import { ManualAgent, type ManualRun } from '../../support/manualAgent.js';
import { post } from '../../support/runsClient.js';
import { startApp, type TestApp } from '../../support/startApp.js';
import type { AppConfig, CreateAppOptions } from '../../../src/http/createApp.js';
import { SqliteStore } from '../../../src/store/sqlite/SqliteStore.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(config: Partial<AppConfig> = {}, options: Partial<CreateAppOptions> = {}) {
  const agent = new ManualAgent();
  app = await startApp(agent, config, options);
  const client = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: 'unused', maxRetries: 0 });
  const conversation = await client.conversations.create({ items: [{ type: 'message', role: 'user', content: 'I am Ann' }] });
  const items = async () => (await app!.store.conversations.items(conversation.id))!;
  return { agent, client, url: app.url, id: conversation.id, items };
}

const answer = (run: ManualRun, text: string) => {
  run.events.next({ type: 'text', delta: text });
  run.events.complete();
};

const texts = (items: readonly ConversationItem[]) =>
  items.map((item) => ((item as { content?: { text: string }[] }).content ?? []).map((part) => part.text).join(''));

describe('responses and runs that continue a conversation', () => {
  it('lets one of two responses sent at once continue it and refuses the other with 409; the next goes on after it', async () => {
    const { agent, client, url, id, items } = await start();
    // Each on a connection of its own, so that neither waits for the other's socket.
    const send = (input: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${url}/v1/responses`, { method: 'POST', agent: false }, (res) => {
          res.resume().on('end', () => resolve(res.statusCode!));
        });
        req.on('error', reject).end(JSON.stringify({ conversation: id, input }));
      });
    const statuses: number[] = [];
    const both = Promise.all(['one', 'two'].map((input) => send(input).then((status) => statuses.push(status))));
    const run = await agent.started(0);
    // The refused one is answered while the other still runs.
    await expect.poll(() => statuses).toEqual([409]);
    answer(run, 'answered');
    await both;

    expect(statuses.sort()).toEqual([200, 409]);
    expect(agent.runs).toHaveLength(1);
    const asked = agent.runs[0]!.request.messages.at(-1)!.content as string;
    expect(texts(await items())).toEqual(['I am Ann', asked, 'answered']);

    const third = client.responses.create({ conversation: id, input: 'three' });
    const next = await agent.started(1);
    const refused = await client.responses.create({ conversation: id, input: 'four' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConflictError);
    expect(refused).toMatchObject({ code: 'conversation_locked', param: 'conversation' });
    answer(next, 'again');
    expect((await third).output_text).toBe('again');
    expect(next.request.messages).toEqual([
      { role: 'user', content: 'I am Ann' },
      { role: 'user', content: asked },
      { role: 'assistant', content: 'answered' },
      { role: 'user', content: 'three' },
    ]);
  });

  it('has the items stored when the stream says response.completed', async () => {
    const { agent, client, id, items } = await start();
    const stream = await client.responses.create({ conversation: id, input: 'hi', stream: true });
    answer(await agent.started(0), 'hello');
    for await (const event of stream) {
      if (event.type === 'response.completed') expect(texts(await items())).toEqual(['I am Ann', 'hi', 'hello']);
    }
    expect(texts(await items())).toEqual(['I am Ann', 'hi', 'hello']);
  });

  it('shows a background response completed only once its items are stored and the conversation is free again', async () => {
    // Events written a second apart: a terminal event shown before its turn is stored shows here.
    const { agent, client, id, items } = await start({}, { store: new SqliteStore({ dataDir: ':memory:', flushMs: 1_000 }) });
    const background = await client.responses.create({ conversation: id, input: 'hi', background: true });
    answer(await agent.started(0), 'hello');
    await expect.poll(async () => (await client.responses.retrieve(background.id)).status).toBe('completed');
    expect(texts(await items())).toEqual(['I am Ann', 'hi', 'hello']);

    const next = client.responses.create({ conversation: id, input: 'again' });
    answer(await agent.started(1), 'fine');
    expect((await next).output_text).toBe('fine');
  });

  it('appends nothing for a failed response, a cancelled background one or one whose client left, and frees it each time', async () => {
    const { agent, client, url, id, items } = await start();
    const failed = client.responses.create({ conversation: id, input: 'fail' }).catch((error: unknown) => error);
    (await agent.started(0)).events.error(new AgentError('the agent broke', 'agent_failed'));
    expect(await failed).toMatchObject({ status: 500 });

    const background = await client.responses.create({ conversation: id, input: 'cancel me', background: true });
    const run = await agent.started(1);
    run.events.next({ type: 'text', delta: 'half' });
    expect((await client.responses.cancel(background.id)).status).toBe('cancelled');

    const controller = new AbortController();
    const left = await client.responses.create({ conversation: id, input: 'leave', stream: true }, { signal: controller.signal });
    (await agent.started(2)).events.next({ type: 'text', delta: 'half' });
    controller.abort();
    await left.controller.signal.aborted;

    // Once the interrupted response has settled, the conversation is free again, and as it was.
    const free = async () =>
      (await app!.store.conversations.lock(id, 'probe')) && (await app!.store.conversations.unlock(id, 'probe'), true);
    await expect.poll(free).toBe(true);
    const next = post(`${url}/v1/responses`, { conversation: id, input: 'now' });
    answer(await agent.started(3), 'fine');
    expect((await next).status).toBe(200);
    expect(texts(await items())).toEqual(['I am Ann', 'now', 'fine']);
  });

  it('refuses a conversation over RXGATE_MAX_CONVERSATION_BYTES with 400 naming conversation, unless truncation is auto', async () => {
    const { agent, client, id, items } = await start({ maxConversationBytes: 400 });
    await client.conversations.items.create(id, { items: [{ type: 'message', role: 'user', content: 'x'.repeat(200) }] });
    await client.conversations.items.create(id, { items: [{ type: 'message', role: 'user', content: 'newest' }] });
    const refused = await client.responses.create({ conversation: id, input: 'hi' }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400, code: 'conversation_too_large', param: 'conversation' });

    const truncated = client.responses.create({ conversation: id, input: 'hi', truncation: 'auto' });
    answer(await agent.started(0), 'ok');
    await truncated;
    expect(agent.runs[0]!.request.messages).toEqual([
      { role: 'user', content: 'newest' },
      { role: 'user', content: 'hi' },
    ]);
    expect(texts(await items())).toHaveLength(5);
  });

  it('lets a run continue it: the run reads it, and appends its input and answer before run.completed; a stopped run appends nothing', async () => {
    const { agent, url, id, items } = await start();
    const created = await post(`${url}/v1/runs`, { input: 'Go on', conversation: id });
    expect(created.status).toBe(202);
    const { run_id } = (await created.json()) as { run_id: string };
    const events = await followRun(url, run_id);
    const run = await agent.started(0);
    expect(run.request.messages).toEqual([
      { role: 'user', content: 'I am Ann' },
      { role: 'user', content: 'Go on' },
    ]);
    answer(run, 'Done, Ann');
    await events.until('run.completed');
    expect(texts(await items())).toEqual(['I am Ann', 'Go on', 'Done, Ann']);

    const second = (await (await post(`${url}/v1/runs`, { input: 'More', conversation: id })).json()) as { run_id: string };
    const locked = await post(`${url}/v1/runs`, { input: 'Also', conversation: id });
    expect(locked.status).toBe(409);
    (await agent.started(1)).events.next({ type: 'text', delta: 'partial' });
    expect((await post(`${url}/v1/runs/${second.run_id}/stop`)).status).toBe(200);
    await expect.poll(async () => (await post(`${url}/v1/runs`, { input: 'Again', conversation: id })).status).toBe(202);
    expect(texts(await items())).toEqual(['I am Ann', 'Go on', 'Done, Ann']);
  });
});
