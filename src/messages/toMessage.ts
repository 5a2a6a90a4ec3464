import { map, reduce, type OperatorFunction } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import type { ContentBlock, Message, MessageMeta, MessageStreamEvent } from './messageObjects.js';
import { startedMessage, toMessageEvents } from './toMessageEvents.js';

/** A message being put together from its stream: one per answer, filled in place. */
interface Draft {
  message: Message;
  readonly blocks: ContentBlock[];
  /** The `input_json_delta` text of each `tool_use` block, by index, parsed at its end. */
  readonly inputs: Map<number, string>;
}

/** A tool call's arguments as its block's `input`: what the model wrote, or `{}` for a call cut off before its JSON closed. */
function parseInput(json: string): unknown {
  try {
    return json === '' ? {} : JSON.parse(json);
  } catch {
    return {};
  }
}

function apply(draft: Draft, event: MessageStreamEvent): Draft {
  const { blocks } = draft;
  switch (event.type) {
    case 'content_block_start':
      blocks[event.index] = event.content_block;
      break;
    case 'content_block_delta': {
      const block = blocks[event.index]!;
      const { delta } = event;
      if (delta.type === 'text_delta' && block.type === 'text') blocks[event.index] = { ...block, text: block.text + delta.text };
      else if (delta.type === 'thinking_delta' && block.type === 'thinking')
        blocks[event.index] = { ...block, thinking: block.thinking + delta.thinking };
      else if (delta.type === 'signature_delta' && block.type === 'thinking')
        blocks[event.index] = { ...block, signature: block.signature + delta.signature };
      else if (delta.type === 'input_json_delta') draft.inputs.set(event.index, (draft.inputs.get(event.index) ?? '') + delta.partial_json);
      break;
    }
    case 'content_block_stop': {
      const block = blocks[event.index]!;
      if (block.type === 'tool_use') blocks[event.index] = { ...block, input: parseInput(draft.inputs.get(event.index) ?? '') };
      break;
    }
    case 'message_delta':
      draft.message = {
        ...draft.message,
        stop_reason: event.delta.stop_reason,
        stop_sequence: event.delta.stop_sequence,
        usage: event.usage,
      };
      break;
  }
  return draft;
}

/**
 * Collects a whole run into one `Message`, emitted when the run completes: the stream's own events
 * (`toMessageEvents`) put together as a client puts them together, so that a streamed answer and
 * a whole one of the same run are the same message.
 *
 * ```
 * source:   --t--t--f--|
 * result:   -----------(M|)
 * ```
 */
export function toMessage(meta: MessageMeta): OperatorFunction<AgentEvent, Message> {
  return (events$) =>
    events$.pipe(
      toMessageEvents(meta),
      reduce<MessageStreamEvent, Draft | undefined>(
        (draft, event) => apply(draft ?? { message: startedMessage(meta), blocks: [], inputs: new Map() }, event),
        undefined,
      ),
      map((draft) => ({ ...draft!.message, content: draft!.blocks })),
    );
}
