import { randomBytes } from 'node:crypto';
import type { ToolCall } from '../agent.js';
import type { UpstreamToolCallDelta } from '../../upstream/upstreamChunk.js';

export interface ToolCallAssembler {
  /** Adds one fragment and returns the index of the call it belongs to. */
  add(delta: UpstreamToolCallDelta): number;
  /** The call at `index` as assembled so far. */
  call(index: number): ToolCall;
  /** The indexes of the calls so far, ascending. */
  indexes(): number[];
}

interface Draft {
  id: string;
  name: string;
  arguments: string;
}

/** An id for a call the upstream sent none for; unique, since a client may get it and send it back. */
function newCallId(): string {
  return `call_${randomBytes(12).toString('hex')}`;
}

/**
 * Rebuilds tool calls from streamed fragments: the first fragment of a call brings `index`,
 * `id` and `function.name`, later ones only `index` and an `arguments` piece. Parallel calls
 * interleave by `index`. Upstreams that omit `index` send each call whole, so a fragment with
 * a new `id` and no `index` starts a call of its own. A call's id is the first one sent for it;
 * a call without one gets one when it is first read, and keeps it.
 */
export function createToolCallAssembler(): ToolCallAssembler {
  const byIndex = new Map<number, Draft>();
  let lastIndex = -1;
  return {
    add(delta) {
      const index =
        delta.index ?? (delta.id !== undefined && delta.id !== byIndex.get(lastIndex)?.id ? lastIndex + 1 : Math.max(lastIndex, 0));
      lastIndex = Math.max(lastIndex, index);
      const draft = byIndex.get(index) ?? { id: '', name: '', arguments: '' };
      byIndex.set(index, draft);
      if (delta.id && !draft.id) draft.id = delta.id;
      if (delta.function?.name) draft.name += delta.function.name;
      if (delta.function?.arguments) draft.arguments += delta.function.arguments;
      return index;
    },
    call(index) {
      const draft = byIndex.get(index);
      if (!draft) throw new Error(`rxgate: no tool call at index ${index}`);
      draft.id ||= newCallId();
      return { id: draft.id, type: 'function', function: { name: draft.name, arguments: draft.arguments } };
    },
    indexes() {
      return [...byIndex.keys()].sort((a, b) => a - b);
    },
  };
}
