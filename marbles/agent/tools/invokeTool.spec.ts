import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { calculatorTool } from '../../../src/agent/tools/calculatorTool.js';
import { createToolRegistry, selectTools } from '../../../src/agent/tools/createToolRegistry.js';
import { currentTimeTool } from '../../../src/agent/tools/currentTimeTool.js';
import { invokeTool } from '../../../src/agent/tools/invokeTool.js';
import { defineTool } from '../../../src/agent/tools/tool.js';
import { toToolDefinitions } from '../../../src/agent/tools/toToolDefinitions.js';

const signal = new AbortController().signal;

describe('invokeTool', () => {
  it('runs a tool with arguments that pass its schema', async () => {
    expect(await invokeTool(calculatorTool, 'calculator', '{"expression":"6*7"}', signal)).toEqual({ result: '42' });
  });

  it('treats empty arguments as {}', async () => {
    expect(await invokeTool(currentTimeTool, 'current_time', '', signal)).toEqual({ result: expect.stringMatching(/^UTC: /) });
  });

  it('turns arguments that are not JSON into an error the model reads', async () => {
    expect(await invokeTool(calculatorTool, 'calculator', '{"expression": 6*7}', signal)).toEqual({
      error: 'the arguments of calculator are not valid JSON: {"expression": 6*7}',
    });
  });

  it('turns a schema failure into an error naming the field', async () => {
    expect(await invokeTool(calculatorTool, 'calculator', '{"expr":"1"}', signal)).toEqual({
      error: expect.stringMatching(/^invalid arguments for calculator: expression: /),
    });
    expect(await invokeTool(calculatorTool, 'calculator', '[1]', signal)).toEqual({ error: expect.stringMatching(/^invalid arguments for calculator: \(arguments\): /) });
  });

  it('turns a tool that throws into an error', async () => {
    expect(await invokeTool(calculatorTool, 'calculator', '{"expression":"1/0"}', signal)).toEqual({ error: 'division by zero' });
    expect(await invokeTool(currentTimeTool, 'current_time', '{"timezone":"Mars/Olympus"}', signal)).toEqual({
      error: '"Mars/Olympus" is not an IANA time zone; use a name like "Europe/Paris" or "UTC"',
    });
  });

  it('turns an unknown tool into an error', async () => {
    expect(await invokeTool(undefined, 'rm_rf', '{}', signal)).toEqual({ error: 'there is no tool named "rm_rf"' });
  });

  it('passes the signal to the tool', async () => {
    const seen: AbortSignal[] = [];
    const probe = defineTool({ name: 'probe', description: 'd', parameters: z.object({}), run: async (_args, toolSignal) => (seen.push(toolSignal), 'ok') });
    await invokeTool(probe, 'probe', '{}', signal);
    expect(seen).toEqual([signal]);
  });
});

describe('current_time', () => {
  it('answers in a named zone too', async () => {
    const result = await currentTimeTool.run({ timezone: 'Asia/Tokyo' }, signal);
    expect(result).toMatch(/^UTC: .*\nAsia\/Tokyo: .*GMT\+9/s);
  });
});

describe('tool selection', () => {
  it('selects built-in tools by name, in the order given', () => {
    expect(selectTools(['calculator', 'current_time']).map((tool) => tool.name)).toEqual(['calculator', 'current_time']);
    expect(selectTools([])).toEqual([]);
  });

  it('names the unknown tools and what is available', () => {
    expect(() => selectTools(['calculator', 'web_search'])).toThrow('rxgate: unknown tool "web_search"; available: current_time, calculator');
  });

  it('refuses two tools with one name', () => {
    expect(() => createToolRegistry([calculatorTool, calculatorTool])).toThrow(/two tools are named "calculator"/);
  });

  it('describes tools to the model with JSON schemas from zod', () => {
    expect(toToolDefinitions([currentTimeTool])).toEqual([
      {
        type: 'function',
        function: {
          name: 'current_time',
          description: expect.any(String),
          parameters: {
            type: 'object',
            properties: { timezone: { type: 'string', minLength: 1, description: 'An IANA time zone name, for example "Europe/Paris"' } },
            additionalProperties: false,
          },
        },
      },
    ]);
  });
});
