import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Cancellation } from '../../../../../src/agent/cancellation.js';
import type { Tool, ToolSource } from '../../../../../src/agent/tools/tool.js';
import { loadConfig } from '../../../../../src/config.js';
import { createAgentFor } from '../../../../../src/createAgentFor.js';
import { silentLogger } from '../../../../../src/logger.js';
import { collectRun } from '../../../../support/collectRun.js';
import { answer, createScriptedUpstream } from '../../../../support/scriptedUpstream.js';
import { calculatorTool } from '../../../../../src/agent/tools/calculatorTool.js';
import { invokeTool } from '../../../../../src/agent/tools/invokeTool.js';
import { assignToolNames, sanitizeToolName } from '../../../../../src/agent/tools/mcp/assignToolNames.js';
import { prepareToolSchema } from '../../../../../src/agent/tools/mcp/prepareToolSchema.js';
import { renderToolResult } from '../../../../../src/agent/tools/mcp/renderToolResult.js';
import { defineTool } from '../../../../../src/agent/tools/tool.js';
import { toToolDefinitions } from '../../../../../src/agent/tools/toToolDefinitions.js';

const signal = new AbortController().signal;

describe('MCP tool names', () => {
  it('are <server>__<tool>, with characters upstreams reject replaced and cut to 64', () => {
    expect(sanitizeToolName('github', 'create_issue')).toBe('github__create_issue');
    expect(sanitizeToolName('my.server', 'files/read file')).toBe('my_server__files_read_file');
    expect(sanitizeToolName('s', 'x'.repeat(100))).toHaveLength(64);
    expect(sanitizeToolName('s', 'x'.repeat(100))).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it('resolve collisions the same way whatever the order, and say which were renamed', () => {
    const entries = [
      { server: 'b', tool: 'x' },
      { server: 'a.b', tool: 'c' },
      { server: 'a_b', tool: 'c' },
      { server: 'calc', tool: 'u' },
    ];

    const { names, renames } = assignToolNames(entries, ['calc__u']);
    const reversed = assignToolNames([...entries].reverse(), ['calc__u']);

    expect(names).toEqual(['b__x', 'a_b__c', 'a_b__c_2', 'calc__u_2']);
    expect(reversed.names).toEqual([...names].reverse());
    expect(renames).toEqual([
      { server: 'a.b', tool: 'c', name: 'a_b__c', reason: 'sanitised' },
      { server: 'a_b', tool: 'c', name: 'a_b__c_2', reason: 'collision' },
      { server: 'calc', tool: 'u', name: 'calc__u_2', reason: 'collision' },
    ]);
  });

  it('stay within 64 characters with a suffix', () => {
    const long = 'y'.repeat(70);
    const { names } = assignToolNames([
      { server: 's', tool: `${long}a` },
      { server: 's', tool: `${long}b` },
    ]);

    expect(names[1]).toHaveLength(64);
    expect(names[1]!.endsWith('_2')).toBe(true);
  });
});

describe('MCP tool results as the text the model reads', () => {
  it('renders text, media placeholders, resource links and embedded resources', () => {
    const result = renderToolResult({
      content: [
        { type: 'text', text: 'Hello' },
        { type: 'image', data: 'A'.repeat(16_000), mimeType: 'image/png' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' },
        { type: 'resource', resource: { uri: 'file:///b.txt', text: 'inline b' } },
        { type: 'resource', resource: { uri: 'file:///c.bin', mimeType: 'application/octet-stream', blob: 'AAAAAAAA' } },
        { type: 'future_thing' },
      ],
    });

    expect(result).toBe(
      [
        'Hello',
        '[image: image/png, 12 kB]',
        '[audio: audio/wav, 3 B]',
        '[resource link: a.txt <file:///a.txt>]',
        'inline b',
        '[resource: file:///c.bin, application/octet-stream, 6 B]',
        '[future_thing content]',
      ].join('\n'),
    );
  });

  it('renders structured content as JSON only when nothing else came', () => {
    expect(renderToolResult({ content: [], structuredContent: { temperature: 21 } })).toBe('{"temperature":21}');
    expect(renderToolResult({ content: [{ type: 'text', text: '{"temperature": 21}' }], structuredContent: { temperature: 21 } })).toBe(
      '{"temperature": 21}',
    );
    expect(renderToolResult({})).toBe('');
  });
});

describe('MCP tool schemas', () => {
  it('pass through unchanged but for the dialect marker, and check arguments with ajv', async () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { path: { type: 'string', minLength: 1 }, depth: { type: 'integer', maximum: 3 } },
      required: ['path'],
      additionalProperties: false,
    };
    const prepared = prepareToolSchema(schema);
    if (!prepared.ok) throw new Error(prepared.problem);
    const tool = defineTool({
      name: 'fs__list',
      description: 'lists',
      parameters: prepared.parameters,
      inputSchema: prepared.inputSchema,
      run: async () => 'listed',
    });

    expect(toToolDefinitions([tool, calculatorTool])[0]).toEqual({
      type: 'function',
      function: {
        name: 'fs__list',
        description: 'lists',
        parameters: { type: 'object', properties: schema.properties, required: ['path'], additionalProperties: false },
      },
    });
    expect(toToolDefinitions([calculatorTool])[0]!.function.parameters).toMatchObject({ type: 'object', required: ['expression'] });
    expect(await invokeTool(tool, 'fs__list', '{"path":"/tmp"}', signal)).toEqual({ result: 'listed' });
    expect(await invokeTool(tool, 'fs__list', '{"path":"","depth":7,"x":1}', signal)).toEqual({
      error:
        'invalid arguments for fs__list: (arguments): must NOT have additional properties; path: must NOT have fewer than 1 characters; depth: must be <= 3',
    });
  });

  it('refuses a schema upstreams would reject', () => {
    expect(prepareToolSchema({ type: 'object', properties: { x: { type: 'strnig' } } })).toEqual({
      ok: false,
      problem: 'its input schema is not valid JSON Schema (type must be JSONType or JSONType[]: strnig)',
    });
    expect(prepareToolSchema({ type: 'array' })).toEqual({ ok: false, problem: 'its input schema is not a JSON schema of type "object"' });
    expect(prepareToolSchema(undefined)).toMatchObject({ ok: false });
  });

  it('gives an object schema without properties an empty properties, which some upstreams require', () => {
    expect(prepareToolSchema({ type: 'object' })).toMatchObject({ ok: true, inputSchema: { type: 'object', properties: {} } });
  });
});

describe('createAgentFor with a live tool source (the MCP tools)', () => {
  it('offers each run the built-in tools and the tools of the source at the moment the run starts', async () => {
    const upstream = await createScriptedUpstream([answer('one'), answer('two')]);
    try {
      const extra = (name: string) =>
        defineTool({
          name,
          description: name,
          parameters: z.object({}),
          inputSchema: { type: 'object', properties: {} },
          run: async () => 'ok',
        });
      let tools: readonly Tool[] = [extra('srv__a')];
      const source: ToolSource = { tools: () => tools };
      const config = loadConfig({ RXGATE_UPSTREAM_URL: upstream.baseUrl, RXGATE_UPSTREAM_MODEL: 'up', RXGATE_TOOLS: 'calculator' });
      const agent = createAgentFor(config, silentLogger, { extraTools: source });

      await collectRun(agent.run({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, new Cancellation()));
      tools = [extra('srv__a'), extra('srv__b')];
      await collectRun(agent.run({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, new Cancellation()));

      const offered = upstream.requests.map((request) =>
        (request.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name),
      );
      expect(offered).toEqual([
        ['calculator', 'srv__a'],
        ['calculator', 'srv__a', 'srv__b'],
      ]);
      expect(agent.description).toMatch(/tools: calculator, srv__a, and those its tool source adds\)$/);
    } finally {
      await upstream.close();
    }
  });
});
