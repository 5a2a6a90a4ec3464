import { describe, expect, it } from 'vitest';
import { openUpstream } from '../../../src/upstream/openaiChat/openUpstream.js';
import { UpstreamEndpoint } from '../../../src/upstream/UpstreamEndpoint.js';
import { MAX_SCHEMA_CHARS, MAX_SCHEMA_DEPTH } from '../../../src/openai/boundSchema.js';
import { UpstreamError } from '../../../src/errors/UpstreamError.js';
import { answer } from '../../support/scriptedUpstream.js';
import { useLlmGateway } from '../../support/startLlmGateway.js';

// Client-supplied JSON Schemas are forwarded as sent; one that nests thousands of levels deep
// overflowed the stack when the upstream body was serialised, and the client got a 502 blaming
// the upstream. Such a schema is the client's error: a 400 naming the tool (or format) and the field.

const gateways = useLlmGateway();

/** A schema exactly `depth` levels of objects and arrays deep, the schema itself being level 1. */
function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = depth % 2 === 0 ? { type: 'string', enum: ['a'] } : { type: 'string' };
  // Each wrapper adds two levels: the schema object and its `properties` object.
  for (let levels = depth % 2 === 0 ? 2 : 1; levels < depth; levels += 2) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

const user = [{ role: 'user', content: 'hi' }];
const chatTool = (parameters: unknown) => ({ type: 'function', function: { name: 'deep_tool', parameters } });

interface Refusal {
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly param: string;
  readonly owner: string;
}

const DEEP = nested(3_001);
const REFUSALS: readonly Refusal[] = [
  {
    path: '/v1/chat/completions',
    body: { messages: user, tools: [chatTool(DEEP)] },
    param: 'tools[0].function.parameters',
    owner: "tool 'deep_tool'",
  },
  {
    path: '/v1/chat/completions',
    body: { messages: user, stream: true, tools: [chatTool({ type: 'object' }), chatTool(DEEP)] },
    param: 'tools[1].function.parameters',
    owner: "tool 'deep_tool'",
  },
  {
    path: '/v1/chat/completions',
    body: { messages: user, response_format: { type: 'json_schema', json_schema: { name: 'deep_format', schema: DEEP } } },
    param: 'response_format.json_schema.schema',
    owner: "response format 'deep_format'",
  },
  {
    path: '/v1/responses',
    body: { input: 'hi', stream: true, tools: [{ type: 'function', name: 'deep_tool', parameters: DEEP }] },
    param: 'tools[0].parameters',
    owner: "tool 'deep_tool'",
  },
  {
    path: '/v1/responses',
    body: { input: 'hi', text: { format: { type: 'json_schema', name: 'deep_format', schema: DEEP } } },
    param: 'text.format.schema',
    owner: "text format 'deep_format'",
  },
];

describe('client JSON Schemas', () => {
  it.each(REFUSALS)(
    'refuses a schema 3,000 levels deep at $param with a 400 that names $owner, before any upstream call',
    async (refusal) => {
      const { upstream, gateway } = await gateways.start([answer('never')]);
      const response = await fetch(`${gateway.url}${refusal.path}`, { method: 'POST', body: JSON.stringify(refusal.body) });
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as { error: Record<string, unknown> };
      expect(error).toEqual({
        message: expect.stringContaining(`${refusal.owner} nests deeper than ${MAX_SCHEMA_DEPTH} levels`),
        type: 'invalid_request_error',
        param: refusal.param,
        code: 'invalid_value',
      });
      expect(upstream.requests).toHaveLength(0);
    },
  );

  it('refuses a schema larger than MAX_SCHEMA_CHARS, naming its size', async () => {
    const { upstream, gateway } = await gateways.start([answer('never')]);
    const wide = { type: 'string', enum: Array.from({ length: MAX_SCHEMA_CHARS / 8 }, (_, index) => `v${index}`) };
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ messages: user, tools: [chatTool(wide)] }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: {
        param: 'tools[0].function.parameters',
        message: expect.stringMatching(/'deep_tool' is \d+ characters of JSON, more than 262144/),
      },
    });
    expect(upstream.requests).toHaveLength(0);
  });

  it('forwards a schema exactly MAX_SCHEMA_DEPTH levels deep intact, streaming and not', async () => {
    const { upstream, gateway } = await gateways.start([answer('ok'), answer('ok')]);
    const deepest = nested(MAX_SCHEMA_DEPTH);
    for (const [index, stream] of [false, true].entries()) {
      const response = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ messages: user, stream, tools: [chatTool(deepest)] }),
      });
      expect(response.status).toBe(200);
      await response.text();
      const { body } = await upstream.request(index);
      expect(body.tools).toContainEqual(chatTool(deepest));
    }
    const deeper = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ messages: user, tools: [chatTool(nested(MAX_SCHEMA_DEPTH + 1))] }),
    });
    expect(deeper.status).toBe(400);
  });
});

describe('openUpstream', () => {
  it('fails a body it cannot serialise as its own error, never as the upstream closing the connection', async () => {
    const { upstream } = await gateways.start([answer('never')]);
    const failure = await openUpstream({
      endpoint: new UpstreamEndpoint(`${upstream.baseUrl}/chat/completions`),
      body: { n: 1n },
      signal: new AbortController().signal,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(failure).not.toBeInstanceOf(UpstreamError);
    expect(upstream.requests).toHaveLength(0);
  });
});
