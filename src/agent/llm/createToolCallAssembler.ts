import type { ToolCall } from '../agent.js';
import type { UpstreamToolCallDelta } from './upstreamChunk.js';

export interface ToolCallAssembler {
  add(deltas: readonly UpstreamToolCallDelta[]): void;
  /** The calls so far, in index order, each with its concatenated arguments. */
  calls(): ToolCall[];
}

/**
 * Rebuilds tool calls from streamed fragments: the first fragment of a call brings `index`,
 * `id` and `function.name`, later ones only `index` and an `arguments` piece. Parallel calls
 * interleave by `index`. Upstreams that omit `index` send each call whole, so a fragment with
 * a new `id` and no `index` starts a call of its own; a call without an `id` gets one.
 */
export function createToolCallAssembler(): ToolCallAssembler {
  const byIndex = new Map<number, { id: string; name: string; arguments: string }>();
  let lastIndex = -1;
  return {
    add(deltas) {
      for (const delta of deltas) {
        const index =
          delta.index ?? (delta.id !== undefined && delta.id !== byIndex.get(lastIndex)?.id ? lastIndex + 1 : Math.max(lastIndex, 0));
        lastIndex = Math.max(lastIndex, index);
        const call = byIndex.get(index) ?? { id: '', name: '', arguments: '' };
        byIndex.set(index, call);
        if (delta.id) call.id = delta.id;
        if (delta.function?.name) call.name += delta.function.name;
        if (delta.function?.arguments) call.arguments += delta.function.arguments;
      }
    },
    calls() {
      return [...byIndex.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, call]) => ({
          id: call.id || `call_${index}`,
          type: 'function' as const,
          function: { name: call.name, arguments: call.arguments },
        }));
    },
  };
}
