import { z } from 'zod';
import type { ClientTool } from '../agent/agent.js';
import { MAX_TEXT_CHARS } from './limits.js';

/*
 * The tools the client executes whose calls are items of their own (`local_shell`, `shell`,
 * `apply_patch`): the model is offered a function named after the tool's type, and a call of it
 * reaches the client as the tool's call item, built from the function's arguments. The client's
 * output item comes back as the function's result.
 */

export const EXECUTED_TOOL_TYPES = ['local_shell', 'shell', 'apply_patch'] as const;
export type ExecutedToolType = (typeof EXECUTED_TOOL_TYPES)[number];

export const isExecutedToolType = (type: string): type is ExecutedToolType => (EXECUTED_TOOL_TYPES as readonly string[]).includes(type);

interface CallBase {
  readonly id: string;
  readonly call_id: string;
  readonly status: 'in_progress' | 'completed' | 'incomplete';
}

export interface LocalShellCallItem extends CallBase {
  readonly type: 'local_shell_call';
  readonly action: {
    readonly type: 'exec';
    readonly command: readonly string[];
    readonly env: Readonly<Record<string, string>>;
    readonly timeout_ms: number | null;
    readonly working_directory: string | null;
    readonly user: null;
  };
}

export interface ShellCallItem extends CallBase {
  readonly type: 'shell_call';
  readonly action: { readonly commands: readonly string[]; readonly timeout_ms: number | null; readonly max_output_length: number | null };
  readonly environment: null;
}

export interface ApplyPatchCallItem extends CallBase {
  readonly type: 'apply_patch_call';
  readonly operation:
    | { readonly type: 'create_file' | 'update_file'; readonly path: string; readonly diff: string }
    | { readonly type: 'delete_file'; readonly path: string };
}

export type ExecutedCallItem = LocalShellCallItem | ShellCallItem | ApplyPatchCallItem;

const text = z.string().max(MAX_TEXT_CHARS);
const count = z.number().int().nonnegative();
const strings = z.array(text).min(1).max(256);

/** What the model writes as each tool's function arguments: the fields of the call item's action, flat. */
export const argumentShapes = {
  local_shell: z
    .object({
      command: strings,
      working_directory: text.nullish(),
      timeout_ms: count.nullish(),
      env: z.record(z.string(), text).nullish(),
    })
    .describe('Run a command on the user’s machine. `command` is the program and its arguments, one per entry.'),
  shell: z
    .object({ commands: strings, timeout_ms: count.nullish(), max_output_length: count.nullish() })
    .describe('Run shell commands on the user’s machine, one after the other.'),
  apply_patch: z
    .discriminatedUnion('type', [
      z.object({ type: z.enum(['create_file', 'update_file']), path: text, diff: text }),
      z.object({ type: z.literal('delete_file'), path: text }),
    ])
    .describe(
      'Create, update or delete one file of the user’s. `diff` (for create_file and update_file) is the change in the V4A diff format.',
    ),
} as const;

type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schema of an object's arguments as a function's `parameters`: no `$schema`, no
 * description (the function carries it), unknown fields refused, and a nullish field a plain
 * optional one (a model told "or null" writes null where it means nothing; either parses).
 */
function parametersOf(shape: z.ZodObject): JsonSchema {
  const { properties, ...rest } = z.toJSONSchema(shape, { io: 'input' }) as JsonSchema & { properties: Record<string, JsonSchema> };
  delete rest.$schema;
  delete rest.description;
  const plain = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => {
      const anyOf = property.anyOf as JsonSchema[] | undefined;
      const notNull = anyOf?.filter((member) => member.type !== 'null');
      return [name, notNull?.length === 1 && Object.keys(property).length === 1 ? notNull[0] : property];
    }),
  );
  return { ...rest, properties: plain, additionalProperties: false };
}

const offerOf = (type: 'local_shell' | 'shell'): ClientTool['function'] => ({
  name: type,
  description: argumentShapes[type].description!,
  parameters: parametersOf(argumentShapes[type]),
});

const OFFERS: Readonly<Record<ExecutedToolType, ClientTool['function']>> = {
  local_shell: offerOf('local_shell'),
  shell: offerOf('shell'),
  // Derived, a discriminated union is a top-level oneOf, which a function's parameters (an object) cannot be: one object of every variant's fields instead.
  apply_patch: {
    name: 'apply_patch',
    description: argumentShapes.apply_patch.description!,
    parameters: {
      type: 'object',
      properties: {
        type: { type: 'string', enum: ['create_file', 'update_file', 'delete_file'] },
        path: { type: 'string' },
        diff: { type: 'string' },
      },
      required: ['type', 'path'],
      additionalProperties: false,
    },
  },
};

/** The function the model is offered for a client-executed tool. */
export function executedToolOffer(type: ExecutedToolType): ClientTool {
  return { type: 'function', function: OFFERS[type] };
}

function parseArguments<T extends ExecutedToolType>(type: T, args: string): z.output<(typeof argumentShapes)[T]> | undefined {
  try {
    const parsed = argumentShapes[type].safeParse(JSON.parse(args));
    return parsed.success ? (parsed.data as z.output<(typeof argumentShapes)[T]>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The call item of a client-executed tool, from the arguments the model gave the function standing
 * in for it; undefined when they do not describe a call (the caller then reports the call as the
 * `function_call` it was, so that nothing the model wrote is lost).
 */
export function toExecutedCall(type: ExecutedToolType, base: CallBase, args: string): ExecutedCallItem | undefined {
  switch (type) {
    case 'local_shell': {
      const action = parseArguments('local_shell', args);
      if (!action) return undefined;
      const { command, env, timeout_ms, working_directory } = action;
      return {
        ...base,
        type: 'local_shell_call',
        action: {
          type: 'exec',
          command,
          env: env ?? {},
          timeout_ms: timeout_ms ?? null,
          working_directory: working_directory ?? null,
          user: null,
        },
      };
    }
    case 'shell': {
      const action = parseArguments('shell', args);
      if (!action) return undefined;
      const { commands, timeout_ms, max_output_length } = action;
      return {
        ...base,
        type: 'shell_call',
        action: { commands, timeout_ms: timeout_ms ?? null, max_output_length: max_output_length ?? null },
        environment: null,
      };
    }
    case 'apply_patch': {
      const operation = parseArguments('apply_patch', args);
      if (!operation) return undefined;
      return { ...base, type: 'apply_patch_call', operation };
    }
  }
}

/** The tool a call item belongs to, which is the name of the function standing in for it. */
export function executedToolOf(item: Pick<ExecutedCallItem, 'type'>): ExecutedToolType {
  return item.type === 'local_shell_call' ? 'local_shell' : item.type === 'shell_call' ? 'shell' : 'apply_patch';
}

/** The arguments of the function standing in for the tool, for one of its call items (as the model wrote them, in history). */
export function executedCallArguments(item: ExecutedCallItem | ExecutedCallInput): string {
  if (item.type === 'apply_patch_call') return JSON.stringify(item.operation);
  if (item.type === 'shell_call') return JSON.stringify(item.action);
  const { command, env, timeout_ms, working_directory } = item.action;
  return JSON.stringify({ command, env, timeout_ms, working_directory });
}

const callId = z.string({ error: 'call_id must be a string' }).min(1, 'call_id must not be empty').max(256);
const status = z.enum(['in_progress', 'completed', 'incomplete']).nullish();

/** The input items of the client-executed tools: their calls, sent back with the history, and the client's outputs. */
export const executedToolItems = [
  z.object({
    type: z.literal('local_shell_call'),
    call_id: callId,
    action: z.object({
      type: z.literal('exec'),
      command: strings,
      env: z.record(z.string(), text).nullish(),
      timeout_ms: count.nullish(),
      working_directory: text.nullish(),
    }),
    status,
  }),
  /** OpenAI's type names the call by `id`; its guide sends `call_id`. Either is taken. */
  z
    .object({ type: z.literal('local_shell_call_output'), call_id: callId.optional(), id: callId.optional(), output: text, status })
    .refine((item) => item.call_id !== undefined || item.id !== undefined, 'a local_shell_call_output needs the call_id of its call'),
  z.object({
    type: z.literal('shell_call'),
    call_id: callId,
    action: z.object({ commands: strings, timeout_ms: count.nullish(), max_output_length: count.nullish() }),
    status,
  }),
  z.object({
    type: z.literal('shell_call_output'),
    call_id: callId,
    output: z
      .array(
        z.object({
          stdout: text,
          stderr: text,
          outcome: z.discriminatedUnion('type', [
            z.object({ type: z.literal('exit'), exit_code: z.number().int() }),
            z.object({ type: z.literal('timeout') }),
          ]),
        }),
      )
      .max(256),
    max_output_length: count.nullish(),
    status,
  }),
  z.object({ type: z.literal('apply_patch_call'), call_id: callId, operation: argumentShapes.apply_patch, status }),
  z.object({
    type: z.literal('apply_patch_call_output'),
    call_id: callId,
    status: z.enum(['completed', 'failed']),
    output: text.nullish(),
  }),
] as const;

type ExecutedInputItem = z.output<(typeof executedToolItems)[number]>;
export type ExecutedCallInput = Extract<ExecutedInputItem, { type: 'local_shell_call' | 'shell_call' | 'apply_patch_call' }>;
export type ExecutedOutputInput = Exclude<ExecutedInputItem, ExecutedCallInput>;

/** The call id an output item answers. */
export const answeredCallId = (item: ExecutedOutputInput): string =>
  item.type === 'local_shell_call_output' ? (item.call_id ?? item.id)! : item.call_id;

/** An output item as the result the model reads for the function standing in for its tool. */
export function executedOutputText(item: ExecutedOutputInput): string {
  switch (item.type) {
    case 'local_shell_call_output':
      return item.output;
    case 'shell_call_output':
      return JSON.stringify(item.output);
    case 'apply_patch_call_output':
      return item.output ? `${item.status}: ${item.output}` : item.status;
  }
}
