import { afterEach, describe, expect, it } from 'vitest';
import { ManualAgent } from '../../support/manualAgent.js';
import { startApp, type TestApp } from '../../support/startApp.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

type Case = readonly [name: string, body: unknown, status: number, type: string, param: string | null, code: string];

const INPUT_CASES: readonly Case[] = [
  ['a body that is not an object', [1], 400, 'invalid_request_error', null, 'invalid_body'],
  ['no input', {}, 400, 'invalid_request_error', 'input', 'missing_required_parameter'],
  ['input of the wrong type', { input: 5 }, 400, 'invalid_request_error', 'input', 'invalid_value'],
  ['an empty input string', { input: ' ' }, 400, 'invalid_request_error', 'input', 'invalid_value'],
  ['an empty input array', { input: [] }, 400, 'invalid_request_error', 'input', 'invalid_value'],
  [
    'an unknown part type',
    { input: [{ role: 'user', content: [{ type: 'image', text: 'x' }] }] },
    400,
    'invalid_request_error',
    'input[0].content[0].type',
    'invalid_value',
  ],
  ['an unknown role', { input: [{ role: 'robot', content: 'x' }] }, 400, 'invalid_request_error', 'input[0].role', 'invalid_value'],
  [
    'a message without content',
    { input: [{ role: 'user' }] },
    400,
    'invalid_request_error',
    'input[0].content',
    'missing_required_parameter',
  ],
  ['no user message', { input: [{ role: 'assistant', content: 'x' }] }, 400, 'invalid_request_error', 'input', 'invalid_value'],
  ['instructions that are not a string', { input: 'x', instructions: 3 }, 400, 'invalid_request_error', 'instructions', 'invalid_value'],
];

const RESPONSE_CASES: readonly Case[] = [
  ...INPUT_CASES,
  [
    'an item of an unknown type',
    { input: [{ type: 'telepathy', content: 'x' }] },
    400,
    'invalid_request_error',
    'input[0].type',
    'invalid_value',
  ],
  [
    'a function_call_output without call_id',
    { input: [{ type: 'function_call_output', output: 'x' }] },
    400,
    'invalid_request_error',
    'input[0].call_id',
    'missing_required_parameter',
  ],
  [
    'a function_call_output that answers no call',
    {
      input: [
        { role: 'user', content: 'hi' },
        { type: 'function_call_output', call_id: 'call_nope', output: 'x' },
      ],
    },
    400,
    'invalid_request_error',
    'input[1].call_id',
    'unknown_tool_call',
  ],
  [
    'input of only function_call_outputs, one answering no call',
    {
      input: [
        { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'x' },
        { type: 'function_call_output', call_id: 'call_nope', output: 'x' },
      ],
    },
    400,
    'invalid_request_error',
    'input[2].call_id',
    'unknown_tool_call',
  ],
  [
    'an item_reference to an unknown item',
    {
      input: [
        { role: 'user', content: 'hi' },
        { type: 'item_reference', id: 'msg_nope' },
      ],
    },
    404,
    'invalid_request_error',
    'input[1].id',
    'item_not_found',
  ],
  [
    'a function tool named like a tool of the agent',
    { input: 'x', tools: [{ type: 'function', name: 'calculator' }] },
    400,
    'invalid_request_error',
    'tools[0].name',
    'tool_name_conflict',
  ],
  ['stream that is not a boolean', { input: 'x', stream: 'yes' }, 400, 'invalid_request_error', 'stream', 'invalid_value'],
  ['background without store', { input: 'x', background: true, store: false }, 400, 'invalid_request_error', 'background', 'invalid_value'],
  [
    'a previous_response_id that is not a string',
    { input: 'x', previous_response_id: 5 },
    400,
    'invalid_request_error',
    'previous_response_id',
    'invalid_value',
  ],
  [
    'an unknown previous_response_id',
    { input: 'x', previous_response_id: 'resp_nope' },
    404,
    'invalid_request_error',
    'previous_response_id',
    'response_not_found',
  ],
];

const RUN_CASES: readonly Case[] = [
  ...INPUT_CASES,
  [
    'an item that is not a message',
    { input: [{ type: 'function_call_output', role: 'user', content: 'x' }] },
    400,
    'invalid_request_error',
    'input[0].type',
    'invalid_value',
  ],
];

async function expectError(response: Response, [, , status, type, param, code]: Case) {
  expect(response.status).toBe(status);
  const { error } = (await response.json()) as { error: Record<string, unknown> };
  expect(error).toEqual({ message: expect.stringMatching(/^rxgate: /), type, param, code });
}

describe('bad requests to the Responses and Runs APIs', () => {
  it.each(RESPONSE_CASES)('POST /v1/responses refuses %s', async (...testCase) => {
    app = await startApp(new ManualAgent(['calculator']));
    await expectError(await fetch(`${app.url}/v1/responses`, { method: 'POST', body: JSON.stringify(testCase[1]) }), testCase);
  });

  it('names the call id of a function_call_output that answers no call, in an input of nothing else', async () => {
    app = await startApp(new ManualAgent());
    const body = { input: [{ type: 'function_call_output', call_id: 'call_never', output: 'x' }] };
    const response = await fetch(`${app.url}/v1/responses`, { method: 'POST', body: JSON.stringify(body) });
    expect(await response.json()).toMatchObject({
      error: { param: 'input[0].call_id', code: 'unknown_tool_call', message: expect.stringContaining("'call_never'") },
    });
  });

  it.each(RUN_CASES)('POST /v1/runs refuses %s', async (...testCase) => {
    app = await startApp(new ManualAgent());
    await expectError(await fetch(`${app.url}/v1/runs`, { method: 'POST', body: JSON.stringify(testCase[1]) }), testCase);
  });

  it('answers unknown ids and bad cursors with the OpenAI envelope', async () => {
    const agent = new ManualAgent();
    app = await startApp(agent);
    const { url } = app;
    const get = (path: string, headers: Record<string, string> = {}) => fetch(`${url}${path}`, { headers });
    const post = (path: string, body?: unknown) => fetch(`${url}${path}`, { method: 'POST', body: JSON.stringify(body ?? {}) });

    await expectError(await get('/v1/responses/resp_nope'), ['', null, 404, 'invalid_request_error', null, 'response_not_found']);
    await expectError(await fetch(`${url}/v1/responses/resp_nope`, { method: 'DELETE' }), [
      '',
      null,
      404,
      'invalid_request_error',
      null,
      'response_not_found',
    ]);
    await expectError(await post('/v1/responses/resp_nope/cancel'), ['', null, 404, 'invalid_request_error', null, 'response_not_found']);
    await expectError(await get('/v1/runs/run_nope'), ['', null, 404, 'not_found_error', null, 'run_not_found']);
    await expectError(await get('/v1/runs/run_nope/events'), ['', null, 404, 'not_found_error', null, 'run_not_found']);

    const background = (await (await post('/v1/responses', { input: 'hi', background: true })).json()) as { id: string };
    await expectError(await get(`/v1/responses/${background.id}?stream=true&starting_after=abc`), [
      '',
      null,
      400,
      'invalid_request_error',
      'starting_after',
      'invalid_value',
    ]);
    const { run_id } = (await (await post('/v1/runs', { input: 'hi' })).json()) as { run_id: string };
    await expectError(await get(`/v1/runs/${run_id}/events`, { 'Last-Event-ID': 'x' }), [
      '',
      null,
      400,
      'invalid_request_error',
      'Last-Event-ID',
      'invalid_value',
    ]);

    const answered = post('/v1/responses', { input: 'hi', stream: false });
    (await agent.started(2)).events.complete();
    const foreground = (await (await answered).json()) as { id: string };
    await expectError(await get(`/v1/responses/${foreground.id}?stream=true`), [
      '',
      null,
      400,
      'invalid_request_error',
      'stream',
      'invalid_value',
    ]);
    await expectError(await post(`/v1/responses/${foreground.id}/cancel`), [
      '',
      null,
      400,
      'invalid_request_error',
      null,
      'not_background',
    ]);
  });
});
