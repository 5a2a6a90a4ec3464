import type { AgentEventOf } from '../agent/agentEvent.js';
import { customInput } from '../openai/customToolArguments.js';
import type { ChatToolCallDelta } from './chatCompletionChunk.js';

/** The custom tool call whose input is being gathered. */
interface OpenCustomCall {
  readonly index: number;
  arguments: string;
}

/**
 * Turns the pieces of a custom tool's call (of the function standing in for it, whose arguments
 * are `{"input": ...}` JSON) into the pieces of a `custom` tool call: `id`, `type` and `name` at
 * once, the free-form `input` in one piece when the call is whole (the next call starts, or the
 * answer ends): a fragment of JSON is not a fragment of the input. Pieces must come one call after
 * another, as `ToolCallSequence` puts them.
 */
export class CustomCallInputs {
  #open: OpenCustomCall | undefined;

  constructor(private readonly names: ReadonlySet<string>) {}

  /** The pieces to send for `delta`: the end of the custom call it follows, and its own, if any. */
  take(delta: AgentEventOf<'tool_call_delta'>): ChatToolCallDelta[] {
    const open = this.#open;
    if (open?.index === delta.index) {
      open.arguments += delta.arguments;
      return [];
    }
    const ended = this.close();
    const { index, id, name = '' } = delta;
    if (id === undefined || !this.names.has(name)) return [...ended, functionPiece(delta)];
    this.#open = { index, arguments: delta.arguments };
    return [...ended, { index, id, type: 'custom', custom: { name, input: '' } }];
  }

  /** The input of the custom call still open, as its last piece; nothing when none is. */
  close(): ChatToolCallDelta[] {
    const open = this.#open;
    if (!open) return [];
    this.#open = undefined;
    return [{ index: open.index, custom: { input: customInput(open.arguments) } }];
  }
}

/** A function call's piece as OpenAI streams it: id, type and name in the first piece of each call only. */
export function functionPiece({ index, id, name, arguments: fragment }: AgentEventOf<'tool_call_delta'>): ChatToolCallDelta {
  return id === undefined
    ? { index, function: { arguments: fragment } }
    : { index, id, type: 'function', function: { name: name ?? '', arguments: fragment } };
}
