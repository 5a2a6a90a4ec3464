import OpenAI, { ConflictError, NotFoundError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { answer } from '../../support/scriptedUpstream.js';
import { useLlmGateway } from '../../support/startLlmGateway.js';

const gateways = useLlmGateway();

const clientOf = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0 });

/** The messages the upstream was sent in its `index`th request. */
const sentMessages = async (upstream: { request(index: number): Promise<{ body: Record<string, unknown> }> }, index: number) =>
  (await upstream.request(index)).body.messages;

let closeAfter: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeAfter?.();
  closeAfter = undefined;
});

describe('the Conversations API with the official openai client', () => {
  it('creates a conversation with items, continues it with two responses (the second sees the first answer), and lists it', async () => {
    const { upstream, gateway } = await gateways.start([answer('Hi Ann'), answer('You are Ann')]);
    const client = clientOf(gateway.url);
    const conversation = await client.conversations.create({
      items: [{ type: 'message', role: 'user', content: 'I am Ann' }],
      metadata: { topic: 'names' },
    });
    expect(conversation).toMatchObject({ object: 'conversation', metadata: { topic: 'names' } });
    expect(conversation.id).toMatch(/^conv_[0-9a-f]{32}$/);

    const first = await client.responses.create({ model: 'up-model', conversation: conversation.id, input: 'Greet me' });
    const second = await client.responses.create({ model: 'up-model', conversation: { id: conversation.id }, input: 'Who am I?' });

    expect(first.output_text).toBe('Hi Ann');
    expect(second.output_text).toBe('You are Ann');
    // The response names the conversation it continued, as OpenAI's does; one without names none.
    expect([first.conversation, second.conversation]).toEqual([{ id: conversation.id }, { id: conversation.id }]);
    expect(await sentMessages(upstream, 0)).toEqual([
      { role: 'user', content: 'I am Ann' },
      { role: 'user', content: 'Greet me' },
    ]);
    expect(await sentMessages(upstream, 1)).toEqual([
      { role: 'user', content: 'I am Ann' },
      { role: 'user', content: 'Greet me' },
      { role: 'assistant', content: 'Hi Ann' },
      { role: 'user', content: 'Who am I?' },
    ]);

    const texts = (items: readonly { type: string; content?: unknown }[]) =>
      items.map((item) => (item.content as { text: string }[] | undefined)?.map((part) => part.text).join(''));
    const all = [];
    for await (const item of client.conversations.items.list(conversation.id, { order: 'asc', limit: 2 })) all.push(item);
    expect(texts(all)).toEqual(['I am Ann', 'Greet me', 'Hi Ann', 'Who am I?', 'You are Ann']);
    expect(all[2]!.id).toBe(first.output[0]!.id);

    const newest = await client.conversations.items.list(conversation.id, { limit: 2 });
    expect(texts(newest.data)).toEqual(['You are Ann', 'Who am I?']);
    expect(newest.has_more).toBe(true);
    const next = await client.conversations.items.list(conversation.id, { limit: 2, after: newest.last_id });
    expect(texts(next.data)).toEqual(['Hi Ann', 'Greet me']);
  });

  it("appends, retrieves and deletes items: a deleted item is gone from the next response's context", async () => {
    const { upstream, gateway } = await gateways.start([answer('Noted')]);
    const client = clientOf(gateway.url);
    const conversation = await client.conversations.create();
    const added = await client.conversations.items.create(conversation.id, {
      items: [
        { type: 'message', role: 'user', content: 'My PIN is 1234' },
        { type: 'message', role: 'user', content: 'I like tea' },
      ],
    });
    expect(added.data).toHaveLength(2);
    const secret = added.data[0]!;
    const secretId = secret.id!;
    expect(await client.conversations.items.retrieve(secretId, { conversation_id: conversation.id })).toEqual(secret);

    const after = await client.conversations.items.delete(secretId, { conversation_id: conversation.id });
    expect(after).toEqual(conversation);
    await expect(client.conversations.items.retrieve(secretId, { conversation_id: conversation.id })).rejects.toBeInstanceOf(NotFoundError);

    await client.responses.create({ model: 'up-model', conversation: conversation.id, input: 'What do I like?' });
    expect(await sentMessages(upstream, 0)).toEqual([
      { role: 'user', content: 'I like tea' },
      { role: 'user', content: 'What do I like?' },
    ]);
  });

  it('names a bad item by its place in items, and a reference to an unknown item by its id', async () => {
    const { gateway } = await gateways.start([]);
    const client = clientOf(gateway.url);
    const conversation = await client.conversations.create();
    const refusal = (items: unknown[]) =>
      client.conversations.items
        .create(conversation.id, { items } as unknown as OpenAI.Conversations.ItemCreateParams)
        .catch((error: unknown) => error);

    expect(
      await refusal([
        { type: 'message', role: 'user', content: 'fine' },
        { type: 'message', role: 'user', content: 42 },
      ]),
    ).toMatchObject({
      status: 400,
      param: expect.stringMatching(/^items\[1\]\.content/),
    });
    expect(await refusal([{ type: 'input_file_search_call' }])).toMatchObject({ status: 400, param: 'items[0].type' });
    expect(await refusal([{ type: 'item_reference', id: 'msg_nowhere' }])).toMatchObject({ status: 404, param: 'items[0].id' });
    expect(await client.conversations.items.list(conversation.id)).toMatchObject({ data: [] });
  });

  it('updates metadata, and deletes a conversation with its items (then 404, and a response on it too)', async () => {
    const { gateway } = await gateways.start([]);
    const client = clientOf(gateway.url);
    const conversation = await client.conversations.create({ items: [{ type: 'message', role: 'user', content: 'hello' }] });

    const updated = await client.conversations.update(conversation.id, { metadata: { stage: 'two' } });
    expect(updated).toEqual({ ...conversation, metadata: { stage: 'two' } });
    expect(await client.conversations.retrieve(conversation.id)).toEqual(updated);

    expect(await client.conversations.delete(conversation.id)).toEqual({
      id: conversation.id,
      object: 'conversation.deleted',
      deleted: true,
    });
    await expect(client.conversations.retrieve(conversation.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.conversations.items.list(conversation.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await gateway.store.conversations.items(conversation.id)).toBeUndefined();
    const refused = await client.responses
      .create({ model: 'up-model', conversation: conversation.id, input: 'hi' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(NotFoundError);
    expect(refused).toMatchObject({ code: 'conversation_not_found', param: 'conversation' });
  });

  it('refuses conversation with previous_response_id (400 naming both) and a second response while one runs (409)', async () => {
    const { gateway } = await gateways.start([]);
    const client = clientOf(gateway.url);
    const conversation = await client.conversations.create();
    const both = await client.responses
      .create({ model: 'up-model', conversation: conversation.id, previous_response_id: 'resp_x', input: 'hi' })
      .catch((error: unknown) => error);
    expect(both).toMatchObject({ status: 400, param: 'conversation' });
    expect((both as Error).message).toContain('previous_response_id');

    expect(await gateway.store.conversations.lock(conversation.id, 'someone else')).toBe(true);
    closeAfter = () => gateway.store.conversations.unlock(conversation.id, 'someone else');
    const locked = await client.responses
      .create({ model: 'up-model', conversation: conversation.id, input: 'hi' })
      .catch((error: unknown) => error);
    expect(locked).toBeInstanceOf(ConflictError);
    expect(locked).toMatchObject({ code: 'conversation_locked', param: 'conversation' });
  });
});
