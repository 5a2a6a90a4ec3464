import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createOfflineAgent } from '../../../src/agent/offline/createOfflineAgent.js';
import { selectTools } from '../../../src/agent/tools/createToolRegistry.js';
import { startApp, type TestApp } from '../../support/startApp.js';

// Which request fields rxgate forwards, honours, accepts without effect, or refuses: every field it
// cannot honour is a 400 unsupported_parameter naming it, never a silent drop.

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(modelId = 'rxgate-agent') {
  app = await startApp(createOfflineAgent({ tools: selectTools(['current_time', 'calculator']), delayMs: 0 }), { modelId });
  return app.url;
}

async function post(path: string, body: unknown) {
  const response = await fetch(`${app!.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as { error?: Record<string, unknown> } & Record<string, unknown> };
}

const messages = [{ role: 'user', content: 'hi' }];
const WEATHER = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

const CHAT_REFUSED: readonly [field: string, extra: Record<string, unknown>, param: string][] = [
  ['n above 1', { n: 2 }, 'n'],
  ['logprobs', { logprobs: true }, 'logprobs'],
  ['top_logprobs', { top_logprobs: 3 }, 'top_logprobs'],
  ['audio', { audio: { voice: 'alloy', format: 'mp3' } }, 'audio'],
  ['audio modalities', { modalities: ['text', 'audio'] }, 'modalities'],
  ['prediction', { prediction: { type: 'content', content: 'x' } }, 'prediction'],
  ['web_search_options', { web_search_options: {} }, 'web_search_options'],
  ['the legacy functions', { functions: [{ name: 'f', parameters: {} }] }, 'functions'],
  ['the legacy function_call', { function_call: 'auto' }, 'function_call'],
  ['a hosted tool', { tools: [WEATHER, { type: 'web_search' }] }, 'tools[1].type'],
  ['an allowed_tools tool_choice', { tools: [WEATHER], tool_choice: { type: 'allowed_tools', allowed_tools: {} } }, 'tool_choice.type'],
  [
    'an audio content part',
    { messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: '', format: 'wav' } }] }] },
    'messages[0].content[0].type',
  ],
  [
    'a file content part',
    { messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'f' } }] }] },
    'messages[0].content[0].type',
  ],
];

const RESPONSES_REFUSED: readonly [field: string, extra: Record<string, unknown>, param: string][] = [
  ['top_logprobs', { top_logprobs: 2 }, 'top_logprobs'],
  ['logprobs in include', { include: ['message.output_text.logprobs'] }, 'include'],
  ['truncation auto without a conversation', { truncation: 'auto' }, 'truncation'],
  ['a stored prompt', { prompt: { id: 'pmpt_1' } }, 'prompt'],
  ['max_tool_calls', { max_tool_calls: 3 }, 'max_tool_calls'],
  ['a hosted tool_choice', { tool_choice: { type: 'web_search_preview' } }, 'tool_choice.type'],
  ['an item of a hosted tool', { input: [{ type: 'computer_call_output', call_id: 'c', output: {} }] }, 'input[0].type'],
  ['a file part', { input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'f' }] }] }, 'input[0].content[0].type'],
  ['an image by file_id', { input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'f' }] }] }, 'input[0].content[0].file_id'],
];

describe('request fields rxgate cannot honour', () => {
  it.each(CHAT_REFUSED)('chat completions refuses %s with 400 unsupported_parameter naming it', async (_name, extra, param) => {
    await start();
    const { status, body } = await post('/v1/chat/completions', { model: 'rxgate-agent', messages, ...extra });

    expect(status).toBe(400);
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param, code: 'unsupported_parameter' });
    expect(body.error!.message).toContain(`'${param}'`);
  });

  it.each(RESPONSES_REFUSED)('responses refuses %s with 400 unsupported_parameter naming it', async (_name, extra, param) => {
    await start();
    const { status, body } = await post('/v1/responses', { model: 'rxgate-agent', input: 'hi', ...extra });

    expect(status).toBe(400);
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param, code: 'unsupported_parameter' });
  });

  it('leaves a hosted tool out of the offer by default, naming it in x-rxgate-ignored-tools, and refuses it under RXGATE_HOSTED_TOOLS=refuse', async () => {
    await start();
    const tools = [
      { type: 'web_search' },
      { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} } },
      { type: 'file_search' },
    ];
    const ignored = await fetch(`${app!.url}/v1/responses`, {
      method: 'POST',
      body: JSON.stringify({ model: 'rxgate-agent', input: 'hi', tools }),
    });
    expect(ignored.status).toBe(200);
    expect(ignored.headers.get('x-rxgate-ignored-tools')).toBe('web_search,file_search');
    expect(((await ignored.json()) as { tools: { type: string }[] }).tools.map((tool) => tool.type)).toEqual(['function']);

    await app!.close();
    app = await startApp(createOfflineAgent({ delayMs: 0 }), { hostedTools: 'refuse' });
    const { status, body } = await post('/v1/responses', { model: 'rxgate-agent', input: 'hi', tools });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ param: 'tools[0].type', code: 'unsupported_parameter' });
    expect(body.error!.message).toContain('web_search');
  });

  it('raises the refusal as the openai SDK BadRequestError, with the param', async () => {
    const client = new OpenAI({ baseURL: `${await start()}/v1`, apiKey: 'unused', maxRetries: 0 });
    const error = await client.chat.completions
      .create({ model: 'rxgate-agent', messages: [{ role: 'user', content: 'hi' }], n: 3 })
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ param: 'n', code: 'unsupported_parameter' });
  });
});

describe('request fields rxgate accepts', () => {
  it('accepts the values of refused fields that ask for nothing rxgate lacks, fields with no effect here, and unknown fields', async () => {
    await start();
    const { status, body } = await post('/v1/chat/completions', {
      messages,
      n: 1,
      logprobs: false,
      top_logprobs: null,
      modalities: ['text'],
      store: true,
      service_tier: 'auto',
      prompt_cache_key: 'k',
      safety_identifier: 'user-hash',
      stream_options: { include_obfuscation: false },
      num_ctx: 8192,
    });

    expect(status).toBe(200);
    expect(body.object).toBe('chat.completion');

    const responses = await post('/v1/responses', {
      input: 'hi',
      include: ['reasoning.encrypted_content'],
      truncation: 'disabled',
      service_tier: 'auto',
      prompt_cache_key: 'k',
      stream_options: { include_obfuscation: false },
      frobnicate: true,
    });
    expect(responses.status).toBe(200);
    expect(responses.body.status).toBe('completed');
  });

  it('checks forwarded fields against their OpenAI types, naming the field', async () => {
    await start();
    for (const [extra, param] of [
      [{ temperature: 3 }, 'temperature'],
      [{ max_tokens: 0 }, 'max_tokens'],
      [{ stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
      [{ response_format: { type: 'xml' } }, 'response_format.type'],
      [{ response_format: { type: 'json_schema', json_schema: { name: 'a b' } } }, 'response_format.json_schema.name'],
      [{ reasoning_effort: 'extreme' }, 'reasoning_effort'],
      [{ tool_choice: 'sometimes' }, 'tool_choice'],
      [{ tools: [{ type: 'function', function: { name: 'has space' } }] }, 'tools[0].function.name'],
    ] as const) {
      const { status, body } = await post('/v1/chat/completions', { messages, ...extra });
      expect({ param, status, code: body.error?.code }).toEqual({ param, status: 400, code: 'invalid_value' });
      expect(body.error!.param).toBe(param);
    }
  });
});

describe('the offline agent with client tools', () => {
  const client = async () => new OpenAI({ baseURL: `${await start()}/v1`, apiKey: 'unused', maxRetries: 0 });
  const SEARCH = { type: 'function' as const, function: { name: 'search', parameters: { type: 'object' } } };

  it('calls the first client tool with {} when tool_choice is required, and finishes tool_calls', async () => {
    const completion = await (
      await client()
    ).chat.completions.create({
      model: 'rxgate-agent',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [WEATHER as OpenAI.ChatCompletionTool, SEARCH],
      tool_choice: 'required',
    });

    expect(completion.choices[0]).toMatchObject({
      message: {
        content: null,
        tool_calls: [{ id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
      },
      finish_reason: 'tool_calls',
    });
  });

  it('calls the named client tool, streaming', async () => {
    const stream = (await client()).chat.completions.stream({
      model: 'rxgate-agent',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [WEATHER as OpenAI.ChatCompletionTool, SEARCH],
      tool_choice: { type: 'function', function: { name: 'search' } },
    });
    const completion = await stream.finalChatCompletion();

    expect(completion.choices[0]!.message.tool_calls).toMatchObject([{ function: { name: 'search', arguments: '{}' } }]);
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('answers as usual when tool_choice leaves the choice to the model', async () => {
    const completion = await (
      await client()
    ).chat.completions.create({
      model: 'rxgate-agent',
      messages: [{ role: 'user', content: 'What is 6*7?' }],
      tools: [WEATHER as OpenAI.ChatCompletionTool],
    });

    expect(completion.choices[0]!.message.content).toContain('6*7 = 42');
    expect(completion.choices[0]!.finish_reason).toBe('stop');
  });

  it('refuses a client tool named like one of its own tools', async () => {
    await start();
    const { status, body } = await post('/v1/chat/completions', {
      messages,
      tools: [{ type: 'function', function: { name: 'calculator' } }],
    });

    expect(status).toBe(400);
    expect(body.error).toMatchObject({ param: 'tools[0].function.name', code: 'tool_name_conflict' });
  });
});

describe('GET /v1/models/{id}', () => {
  it('answers for the advertised model, even one with a slash in its id, and 404s with the OpenAI envelope otherwise', async () => {
    const client = new OpenAI({ baseURL: `${await start('org/rxgate-agent')}/v1`, apiKey: 'unused', maxRetries: 0 });

    expect(await client.models.retrieve('org/rxgate-agent')).toMatchObject({ id: 'org/rxgate-agent', object: 'model', owned_by: 'rxgate' });
    const error = await client.models.retrieve('gpt-4o').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ status: 404, type: 'invalid_request_error', param: 'model', code: 'model_not_found' });
  });
});
