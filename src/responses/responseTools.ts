import { z } from 'zod';
import type { MappableHostedTool } from '../config.js';
import type { ClientTool } from '../agent/agent.js';
import { boundSchema } from '../openai/boundSchema.js';
import { EXECUTED_TOOL_TYPES, executedToolOffer, isExecutedToolType, type ExecutedToolType } from '../openai/executedToolCalls.js';
import { MAX_TEXT_CHARS } from '../openai/limits.js';
import { customToolOffer } from '../openai/customToolArguments.js';
import { definedFields, functionName, jsonSchema } from '../openai/modelOptionFields.js';
import type { HostedCallItem, ResponseCustomTool, ResponseFunctionTool, ResponseTool } from '../openai/responseObject.js';
import type { HostedToolPlacement } from './hostedToolPlacement.js';
import { RequestError } from '../errors/RequestError.js';
import { unsupportedParameter } from '../errors/unsupportedParameter.js';

/** The Responses API's tools that OpenAI runs on its side; rxgate has none of them. */
const HOSTED_TOOLS = [
  'web_search',
  'web_search_2025_08_26',
  'web_search_preview',
  'web_search_preview_2025_03_11',
  'file_search',
  'code_interpreter',
  'image_generation',
  'computer',
  'computer_use_preview',
  'tool_search',
  'programmatic_tool_calling',
  'mcp',
] as const;
const HOSTED_TOOL_TYPES: ReadonlySet<string> = new Set(HOSTED_TOOLS);

const description = z.string({ error: 'description must be a string' }).max(MAX_TEXT_CHARS);
const strict = z.boolean({ error: 'strict must be a boolean' }).nullable().optional();

const functionTool = z
  .object({
    type: z.literal('function'),
    name: functionName,
    description: description.nullable().optional(),
    parameters: jsonSchema.nullable().optional(),
    strict,
  })
  .superRefine(
    boundSchema(
      ['parameters'],
      (tool) => tool.parameters,
      (tool) => `the parameters schema of tool '${tool.name}'`,
    ),
  );
const customTool = z.object({
  type: z.literal('custom'),
  name: functionName,
  description: description.optional(),
  format: z
    .discriminatedUnion(
      'type',
      [
        z.object({ type: z.literal('text') }),
        z.object({ type: z.literal('grammar'), syntax: z.enum(['lark', 'regex']), definition: z.string().max(MAX_TEXT_CHARS) }),
      ],
      { error: 'format must have type "text" or "grammar"' },
    )
    .optional(),
});
const namespaceTool = z.object({
  type: z.literal('namespace'),
  name: functionName,
  description,
  tools: z
    .array(z.discriminatedUnion('type', [functionTool, customTool], { error: 'a namespace holds function and custom tools only' }))
    .min(1, 'a namespace must hold a tool')
    .max(128, 'more than 128 tools in a namespace'),
});
const hostedTool = z.object({ type: z.enum(HOSTED_TOOLS) });
/** Where a `shell` tool's commands run (`environment`) is the client's business: rxgate passes the calls on. */
const executedTool = z.object({ type: z.enum(EXECUTED_TOOL_TYPES) });

/** `tools` of a Responses request: every entry one of the client's tools or a hosted one. */
export const responseToolsSchema = z
  .array(
    z.discriminatedUnion('type', [functionTool, customTool, namespaceTool, executedTool, hostedTool], {
      error: 'a tool must have a known type',
    }),
    {
      error: 'tools must be an array of tools',
    },
  )
  .max(128, 'more than 128 tools');

type ParsedTool = z.output<typeof responseToolsSchema>[number];
type OfferedTool = Extract<ParsedTool, { type: 'function' | 'custom' | ExecutedToolType }>;

export interface ResponseTools {
  /** What the model is offered, in the Chat Completions shape the agent takes: one function per tool, namespaces' members flat. */
  readonly clientTools: ClientTool[];
  /** The tools as the response echoes them. */
  readonly echo: ResponseTool[];
  /** The hosted tools' types left out of the offer, in request order, once each. */
  readonly ignored: string[];
  /** The server tools standing in for hosted ones, by name: the call item each is reported as. */
  readonly hostedCalls: Record<string, HostedCallItem['type']>;
}

function toClientTool(tool: OfferedTool): ClientTool {
  if (tool.type !== 'function' && tool.type !== 'custom') return executedToolOffer(tool.type);
  if (tool.type === 'custom')
    return customToolOffer(tool.name, tool.description, tool.format?.type === 'grammar' ? tool.format : undefined);
  const { name, description, parameters, strict } = tool;
  return { type: 'function', function: definedFields({ name, description, parameters, strict }) as ClientTool['function'] };
}

function toEchoTool(tool: Extract<OfferedTool, { type: 'function' | 'custom' }>): ResponseFunctionTool | ResponseCustomTool {
  if (tool.type === 'custom')
    return definedFields({ type: 'custom', name: tool.name, description: tool.description, format: tool.format }) as ResponseCustomTool;
  const { name, description, parameters, strict } = tool;
  return {
    type: 'function',
    name,
    ...(description != null ? { description } : {}),
    parameters: parameters ?? null,
    strict: strict ?? null,
  };
}

/** Refuses, before parsing, the hosted tools under `RXGATE_HOSTED_TOOLS=refuse` that no server tool stands in for. */
export function refuseUnplacedTools(tools: unknown, hosted: HostedToolPlacement): void {
  if (!Array.isArray(tools) || hosted.policy !== 'refuse') return;
  for (const [index, tool] of tools.entries()) {
    const type = typeof tool === 'object' && tool !== null ? (tool as { type?: unknown }).type : undefined;
    if (typeof type === 'string' && HOSTED_TOOL_TYPES.has(type) && !hosted.standInFor(type)) {
      throw unsupportedParameter(
        `tools[${index}].type`,
        `rxgate cannot run the hosted tool '${type}' (RXGATE_HOSTED_TOOLS=refuse); leave it out, or have the operator set RXGATE_HOSTED_TOOLS=ignore or map it to a server tool (RXGATE_HOSTED_TOOLS_MAP)`,
      );
    }
  }
}

/** The name the model calls a tool by: a client-executed tool's function is named after its type. */
const offeredName = (tool: OfferedTool): string => ('name' in tool ? tool.name : tool.type);

/**
 * The tools a Responses request sends, placed: function and custom tools, the members of
 * namespaces and the client-executed tools offered to the model under their own names (two with
 * one name are a 400: a call could not say which it is); hosted tools a server tool stands in
 * for echoed, its calls reported as theirs; the other hosted tools left out and listed.
 */
export function placeResponseTools(tools: readonly ParsedTool[], hosted: HostedToolPlacement): ResponseTools {
  const offered: OfferedTool[] = [];
  const echo: ResponseTool[] = [];
  const ignored = new Set<string>();
  const hostedCalls: Record<string, HostedCallItem['type']> = {};
  for (const tool of tools) {
    if (tool.type === 'namespace') {
      offered.push(...tool.tools);
      echo.push({ type: 'namespace', name: tool.name, description: tool.description, tools: tool.tools.map(toEchoTool) });
    } else if (isExecutedToolType(tool.type)) {
      offered.push(tool as OfferedTool);
      echo.push({ type: tool.type });
    } else if (tool.type === 'function' || tool.type === 'custom') {
      offered.push(tool);
      echo.push(toEchoTool(tool));
    } else {
      const standIn = hosted.standInFor(tool.type);
      if (!standIn) ignored.add(tool.type);
      else {
        hostedCalls[standIn.tool] = standIn.item;
        echo.push({ type: tool.type as MappableHostedTool });
      }
    }
  }
  const names = new Set<string>();
  for (const name of offered.map(offeredName)) {
    if (names.has(name)) {
      throw new RequestError(
        400,
        `invalid 'tools': two tools are named '${name}' (a namespace's members count under their own names, a ${name} tool under its type); rename one`,
        'invalid_request_error',
        'tools',
        'invalid_value',
      );
    }
    names.add(name);
  }
  return { clientTools: offered.map(toClientTool), echo, ignored: [...ignored], hostedCalls };
}
