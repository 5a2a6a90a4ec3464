import OpenAI from 'openai';
import type { ResponseInputItem, ResponseStreamEvent, Tool } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { answer, toolCalls } from '../../support/scriptedUpstream.js';
import { useLlmGateway } from '../../support/startLlmGateway.js';
import { collectStream } from '../../support/collectStream.js';

// The client's tools whose calls are items of their own, through the Responses API with the official
// openai SDK: namespace members, custom tools, and the client-executed local_shell, shell and
// apply_patch, each offered to the model as a function and returned as its own call item.

const gateways = useLlmGateway();
const clientFor = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0 });

interface OfferedFunction {
  readonly function: { readonly name: string; readonly parameters: { readonly required?: string[] } };
}

const offeredNames = (body: Record<string, unknown>) =>
  (body.tools as OfferedFunction[]).map((tool) => tool.function.name).filter((name) => name !== 'current_time' && name !== 'calculator');

const NAMESPACE: Tool = {
  type: 'namespace',
  name: 'multi_agent',
  description: 'Agents',
  tools: [
    { type: 'function', name: 'spawn_agent', parameters: { type: 'object', properties: { task: { type: 'string' } } }, strict: false },
  ],
};
const PATCHER: Tool = {
  type: 'custom',
  name: 'patcher',
  description: 'Applies a patch',
  format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' },
};

describe("the client's tools with call items of their own", () => {
  it('offers namespace members and custom tools flat; a call names its namespace, a custom call streams its input', async () => {
    const calls = toolCalls(
      { id: 'call_ns', name: 'spawn_agent', fragments: ['{"task":', '"review"}'] },
      { id: 'call_c', name: 'patcher', fragments: ['{"input":"*** Begin', ' Patch"}'] },
    );
    const { upstream, gateway } = await gateways.start([calls, answer('Both done')]);
    const client = clientFor(gateway.url);
    const events = await collectStream(
      await client.responses.create({ model: 'rxgate-agent', input: 'Go', tools: [NAMESPACE, PATCHER], stream: true }),
    );
    const done = events.flatMap((event) => (event.type === 'response.output_item.done' ? [event.item] : []));

    const offered = (await upstream.request(0)).body.tools as OfferedFunction[];
    expect(offeredNames((await upstream.request(0)).body)).toEqual(['spawn_agent', 'patcher']);
    expect(offered.find((tool) => tool.function.name === 'patcher')!.function).toMatchObject({
      description: expect.stringContaining('start: /.+/'),
      parameters: { required: ['input'] },
    });
    expect(done).toEqual([
      expect.objectContaining({
        type: 'function_call',
        call_id: 'call_ns',
        name: 'spawn_agent',
        namespace: 'multi_agent',
        arguments: '{"task":"review"}',
      }),
      expect.objectContaining({ type: 'custom_tool_call', call_id: 'call_c', name: 'patcher', input: '*** Begin Patch' }),
    ]);
    expect(events.filter((event) => event.type === 'response.custom_tool_call_input.done')).toEqual([
      expect.objectContaining({ input: '*** Begin Patch' }),
    ]);

    const response = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
    const second = await client.responses.create({
      model: 'rxgate-agent',
      previous_response_id: response.response.id,
      tools: [NAMESPACE, PATCHER],
      input: [
        { type: 'function_call_output', call_id: 'call_ns', output: 'spawned' },
        { type: 'custom_tool_call_output', call_id: 'call_c', output: 'patched' },
      ],
    });
    expect(second.output_text).toBe('Both done');
    expect((await upstream.request(1)).body.messages).toEqual([
      { role: 'user', content: 'Go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_ns', type: 'function', function: { name: 'spawn_agent', arguments: '{"task":"review"}' } },
          { id: 'call_c', type: 'function', function: { name: 'patcher', arguments: '{"input":"*** Begin Patch"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_ns', content: 'spawned' },
      { role: 'tool', tool_call_id: 'call_c', content: 'patched' },
    ]);
  });

  it('returns shell, local_shell and apply_patch calls as their own items, and reads their outputs back as the functions’ results', async () => {
    const calls = toolCalls(
      { id: 'call_sh', name: 'shell', fragments: ['{"commands":["ls -l"],', '"timeout_ms":5000}'] },
      { id: 'call_lsh', name: 'local_shell', fragments: ['{"command":["echo","hi"]}'] },
      { id: 'call_ap', name: 'apply_patch', fragments: ['{"type":"create_file","path":"a.txt",', '"diff":"+hello"}'] },
    );
    const { upstream, gateway } = await gateways.start([calls, answer('All three ran')]);
    const client = clientFor(gateway.url);
    const tools: Tool[] = [{ type: 'shell' }, { type: 'local_shell' }, { type: 'apply_patch' }];
    const events = await collectStream(await client.responses.create({ model: 'rxgate-agent', input: 'Work', tools, stream: true }));
    const response = (events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>).response;

    expect(offeredNames((await upstream.request(0)).body)).toEqual(['shell', 'local_shell', 'apply_patch']);
    expect(response.tools).toEqual(tools);
    expect(response.output).toEqual([
      {
        id: expect.stringMatching(/^sh_/),
        type: 'shell_call',
        status: 'completed',
        call_id: 'call_sh',
        action: { commands: ['ls -l'], timeout_ms: 5000, max_output_length: null },
        environment: null,
      },
      {
        id: expect.stringMatching(/^lsh_/),
        type: 'local_shell_call',
        status: 'completed',
        call_id: 'call_lsh',
        action: { type: 'exec', command: ['echo', 'hi'], env: {}, timeout_ms: null, working_directory: null, user: null },
      },
      {
        id: expect.stringMatching(/^apc_/),
        type: 'apply_patch_call',
        status: 'completed',
        call_id: 'call_ap',
        operation: { type: 'create_file', path: 'a.txt', diff: '+hello' },
      },
    ]);
    const added = events.flatMap((event) => (event.type === 'response.output_item.added' ? [event.item] : []));
    expect(added.map((item) => [item.type, 'status' in item ? item.status : undefined])).toEqual([
      ['shell_call', 'in_progress'],
      ['local_shell_call', 'in_progress'],
      ['apply_patch_call', 'in_progress'],
    ]);

    const outputs: ResponseInputItem[] = [
      {
        type: 'shell_call_output',
        call_id: 'call_sh',
        output: [{ stdout: 'a.txt\n', stderr: '', outcome: { type: 'exit', exit_code: 0 } }],
      },
      { type: 'local_shell_call_output', id: 'call_lsh', output: 'hi\n' },
      { type: 'apply_patch_call_output', call_id: 'call_ap', status: 'completed', output: 'created a.txt' },
    ];
    const second = await client.responses.create({ model: 'rxgate-agent', previous_response_id: response.id, tools, input: outputs });
    expect(second.output_text).toBe('All three ran');
    const sent = (await upstream.request(1)).body.messages as {
      role: string;
      tool_calls?: unknown[];
      tool_call_id?: string;
      content: unknown;
    }[];
    expect(sent[1]!.tool_calls).toEqual([
      {
        id: 'call_sh',
        type: 'function',
        function: { name: 'shell', arguments: '{"commands":["ls -l"],"timeout_ms":5000,"max_output_length":null}' },
      },
      {
        id: 'call_lsh',
        type: 'function',
        function: { name: 'local_shell', arguments: '{"command":["echo","hi"],"env":{},"timeout_ms":null,"working_directory":null}' },
      },
      {
        id: 'call_ap',
        type: 'function',
        function: { name: 'apply_patch', arguments: '{"type":"create_file","path":"a.txt","diff":"+hello"}' },
      },
    ]);
    expect(sent.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'call_sh', content: '[{"stdout":"a.txt\\n","stderr":"","outcome":{"type":"exit","exit_code":0}}]' },
      { role: 'tool', tool_call_id: 'call_lsh', content: 'hi\n' },
      { role: 'tool', tool_call_id: 'call_ap', content: 'completed: created a.txt' },
    ]);
  });

  it('reports a call whose arguments describe no shell call as the function_call the model made, nothing it wrote lost', async () => {
    const { gateway } = await gateways.start([toolCalls({ id: 'call_bad', name: 'shell', fragments: ['{"command":"ls"}'] })]);
    const response = await clientFor(gateway.url).responses.create({ model: 'rxgate-agent', input: 'Work', tools: [{ type: 'shell' }] });

    expect(response.output).toEqual([
      expect.objectContaining({
        type: 'function_call',
        call_id: 'call_bad',
        name: 'shell',
        arguments: '{"command":"ls"}',
        status: 'completed',
      }),
    ]);
  });

  it('streams a call whose arguments describe no shell call as a function call: added, its arguments, done', async () => {
    const calls = toolCalls(
      { id: 'call_bad', name: 'shell', fragments: ['{"command":', '"ls"}'] },
      { id: 'call_lsh', name: 'local_shell', fragments: ['{"command":["ls"]}'] },
    );
    const { gateway } = await gateways.start([calls]);
    const reply = await fetch(`${gateway.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer unused' },
      body: JSON.stringify({ model: 'rxgate-agent', input: 'Work', tools: [{ type: 'shell' }, { type: 'local_shell' }], stream: true }),
    });
    const frames = (await reply.text())
      .split('\n\n')
      .filter((frame) => /^event: response\.(output_item|function_call_arguments)\./.test(frame));
    const id = /"item_id":"fc_([^"_]+)_o/.exec(frames.join(''))?.[1] ?? '';

    expect(frames.map((frame) => frame.replaceAll(id, 'RESP'))).toEqual(FALLBACK_FRAMES);
  });

  it('refuses a function tool named like a client-executed tool it sits beside', async () => {
    const { gateway } = await gateways.start([answer('unused')]);
    const error = await clientFor(gateway.url)
      .responses.create({
        model: 'rxgate-agent',
        input: 'Work',
        tools: [{ type: 'shell' }, { type: 'function', name: 'shell', parameters: null, strict: false }],
      })
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ param: 'tools', message: expect.stringContaining("two tools are named 'shell'") });
  });
});

// The frames of a call that fits no shell call and of the local_shell call after it, bytes as written (the response id made RESP).
const FALLBACK_FRAMES = [
  'event: response.output_item.added\nid: 2\ndata: {"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"call_id":"call_bad","status":"in_progress","id":"fc_RESP_o0","type":"function_call","name":"shell","arguments":""}}',
  'event: response.function_call_arguments.delta\nid: 3\ndata: {"type":"response.function_call_arguments.delta","sequence_number":3,"item_id":"fc_RESP_o0","output_index":0,"delta":"{\\"command\\":\\"ls\\"}"}',
  'event: response.function_call_arguments.done\nid: 4\ndata: {"type":"response.function_call_arguments.done","sequence_number":4,"item_id":"fc_RESP_o0","output_index":0,"name":"shell","arguments":"{\\"command\\":\\"ls\\"}"}',
  'event: response.output_item.done\nid: 5\ndata: {"type":"response.output_item.done","sequence_number":5,"output_index":0,"item":{"call_id":"call_bad","status":"completed","id":"fc_RESP_o0","type":"function_call","name":"shell","arguments":"{\\"command\\":\\"ls\\"}"}}',
  'event: response.output_item.added\nid: 6\ndata: {"type":"response.output_item.added","sequence_number":6,"output_index":1,"item":{"call_id":"call_lsh","status":"in_progress","id":"lsh_RESP_o1","type":"local_shell_call","action":{"type":"exec","command":["ls"],"env":{},"timeout_ms":null,"working_directory":null,"user":null}}}',
  'event: response.output_item.done\nid: 7\ndata: {"type":"response.output_item.done","sequence_number":7,"output_index":1,"item":{"call_id":"call_lsh","status":"completed","id":"lsh_RESP_o1","type":"local_shell_call","action":{"type":"exec","command":["ls"],"env":{},"timeout_ms":null,"working_directory":null,"user":null}}}',
];
