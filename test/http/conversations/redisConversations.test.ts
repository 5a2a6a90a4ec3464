import OpenAI, { ConflictError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { removeKeysUnder, SHARED_REDIS, testPrefix } from '../../support/redisTest.js';
import { answer, createScriptedUpstream, frames, type ScriptedUpstream } from '../../support/scriptedUpstream.js';
import { killAll, startCli, type CliProcess } from '../../support/startCli.js';

const LEASE_MS = 600;

const texts = (items: readonly object[]) =>
  items.map((item) => ((item as { content?: { text: string }[] }).content ?? []).map((part) => part.text).join(''));

describe('a conversation shared by two rxgate processes on one Redis', () => {
  let processes: CliProcess[] = [];
  let upstream: ScriptedUpstream | undefined;
  let prefix: string | undefined;
  afterEach(async () => {
    await killAll(processes);
    processes = [];
    await upstream?.close();
    if (prefix) await removeKeysUnder(prefix);
  });

  it('is locked across them while one answers, left as it was by a SIGKILL mid-response, and continued by the other after the lease', async () => {
    upstream = await createScriptedUpstream([
      answer('Hi Ann'),
      { steps: [frames.role(), frames.text('half an answer'), { stall: true }] },
      answer('You are Ann'),
    ]);
    prefix = testPrefix();
    const env = {
      RXGATE_REDIS_URL: SHARED_REDIS.url,
      RXGATE_REDIS_PREFIX: prefix,
      RXGATE_REDIS_LEASE_MS: String(LEASE_MS),
      RXGATE_UPSTREAM_URL: upstream.baseUrl,
      RXGATE_UPSTREAM_MODEL: 'up-model',
    };
    const [a, b] = await Promise.all([startCli(env), startCli(env)]);
    processes = [a, b];
    const clientOf = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const [onA, onB] = [clientOf(a.url), clientOf(b.url)];

    const conversation = await onA.conversations.create({ items: [{ type: 'message', role: 'user', content: 'I am Ann' }] });
    expect((await onB.responses.create({ conversation: conversation.id, input: 'Hello' })).output_text).toBe('Hi Ann');
    const before = (await onA.conversations.items.list(conversation.id, { order: 'asc' })).data;
    expect(texts(before)).toEqual(['I am Ann', 'Hello', 'Hi Ann']);

    const stream = await onA.responses.create({ conversation: conversation.id, input: 'Tell me a story', stream: true });
    await upstream.request(1);
    const locked = await onB.responses.create({ conversation: conversation.id, input: 'Who am I?' }).catch((error: unknown) => error);
    expect(locked).toBeInstanceOf(ConflictError);
    expect(locked).toMatchObject({ code: 'conversation_locked' });

    a.child.kill('SIGKILL');
    await a.exited;
    const seen: string[] = [];
    const read = async () => {
      for await (const event of stream) seen.push(event.type);
    };
    await expect(read()).rejects.toThrow();
    expect(seen).not.toContain('response.completed');
    expect((await onB.conversations.items.list(conversation.id, { order: 'asc' })).data).toEqual(before);

    // Once the lease A held lapses, B continues it, and the model sees none of the half answer.
    await expect
      .poll(async () => onB.responses.create({ conversation: conversation.id, input: 'Who am I?' }).catch((error: unknown) => error), {
        timeout: 10_000,
      })
      .toMatchObject({ output_text: 'You are Ann' });
    expect((await upstream.request(2)).body.messages).toEqual([
      { role: 'user', content: 'I am Ann' },
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi Ann' },
      { role: 'user', content: 'Who am I?' },
    ]);
  }, 30_000);
});
