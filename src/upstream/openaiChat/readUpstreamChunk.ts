import type { z } from 'zod';
import { upstreamChunkSchema, type UpstreamChunk } from '../upstreamChunk.js';
import { isRecord } from '../../wire/isRecord.js';

type Choice = NonNullable<UpstreamChunk['choices']>[number];

/** `choices[0].delta.content: Invalid input: expected string, received object` */
function describeIssue({ path, message }: z.core.$ZodIssue): string {
  const where = path.reduce<string>(
    (at, key) => (typeof key === 'number' ? `${at}[${key}]` : at ? `${at}.${String(key)}` : String(key)),
    '',
  );
  return `${where || 'the chunk'}: ${message}`;
}

const isText = (value: unknown): value is string | null | undefined => value == null || typeof value === 'string';
const isTokens = (value: unknown): value is number | null | undefined =>
  value == null || (Number.isInteger(value) && (value as number) >= 0);

/** One token count of a usage details object (`prompt_tokens_details.cached_tokens`): undefined if absent, false if not a count. */
function readDetail(details: unknown, key: string): number | undefined | false {
  if (details == null) return undefined;
  if (!isRecord(details)) return false;
  const value = details[key];
  return isTokens(value) ? (value ?? undefined) : false;
}

function readPlainChoice(choice: unknown): Choice | undefined {
  if (!isRecord(choice) || !isText(choice.finish_reason)) return undefined;
  const { delta } = choice;
  const finish_reason = choice.finish_reason ?? undefined;
  if (delta == null) return { delta: undefined, finish_reason };
  if (!isRecord(delta) || delta.tool_calls != null) return undefined;
  const { content, refusal, reasoning_content, reasoning } = delta;
  if (!isText(content) || !isText(refusal) || !isText(reasoning_content) || !isText(reasoning)) return undefined;
  return {
    delta: {
      content: content ?? undefined,
      refusal: refusal ?? undefined,
      reasoning_content: reasoning_content ?? undefined,
      reasoning: reasoning ?? undefined,
    },
    finish_reason,
  };
}

/**
 * The chunk as `upstreamChunkSchema` reads it, for the shape nearly every chunk has (text,
 * reasoning, a finish reason, usage), checked by hand: the schema cost as much per delta as parsing
 * the JSON. Anything else (tool calls, a field of the wrong type) is left to the schema.
 */
function readPlainChunk(json: Record<string, unknown>): UpstreamChunk | undefined {
  const { choices, usage } = json;
  let read: Choice[] | undefined;
  if (choices != null) {
    if (!Array.isArray(choices)) return undefined;
    read = [];
    for (const choice of choices as unknown[]) {
      const plain = readPlainChoice(choice);
      if (!plain) return undefined;
      read.push(plain);
    }
  }
  if (usage == null) return { choices: read, usage: undefined };
  if (!isRecord(usage)) return undefined;
  const { prompt_tokens, completion_tokens, total_tokens } = usage;
  if (!isTokens(prompt_tokens) || !isTokens(completion_tokens) || !isTokens(total_tokens)) return undefined;
  const cached = readDetail(usage.prompt_tokens_details, 'cached_tokens');
  const cacheWrite = readDetail(usage.prompt_tokens_details, 'cache_write_tokens');
  const reasoning = readDetail(usage.completion_tokens_details, 'reasoning_tokens');
  if (cached === false || cacheWrite === false || reasoning === false) return undefined;
  return {
    choices: read,
    usage: {
      prompt_tokens: prompt_tokens ?? undefined,
      completion_tokens: completion_tokens ?? undefined,
      total_tokens: total_tokens ?? undefined,
      ...(cached === undefined && cacheWrite === undefined
        ? {}
        : {
            prompt_tokens_details: {
              ...(cached === undefined ? {} : { cached_tokens: cached }),
              ...(cacheWrite === undefined ? {} : { cache_write_tokens: cacheWrite }),
            },
          }),
      ...(reasoning === undefined ? {} : { completion_tokens_details: { reasoning_tokens: reasoning } }),
    },
  };
}

/**
 * Reads one parsed upstream frame as the chunk rxgate reads (`upstreamChunkSchema`), or says what
 * is wrong with it: `choices[0].delta.content: Invalid input: expected string, received object`.
 */
export function readUpstreamChunk(json: unknown): { readonly chunk: UpstreamChunk } | { readonly problem: string } {
  const plain = isRecord(json) ? readPlainChunk(json) : undefined;
  if (plain) return { chunk: plain };
  const parsed = upstreamChunkSchema.safeParse(json);
  return parsed.success ? { chunk: parsed.data } : { problem: describeIssue(parsed.error.issues[0]!) };
}
