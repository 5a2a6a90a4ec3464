import type { UpstreamChunk } from './upstreamChunk.js';

/**
 * Whether a chunk carries output a client would see: a text, reasoning or tool-call delta, a
 * finish or the usage. The first such chunk is a model call's commit point, and what ends its
 * first-content timeout; a role chunk or a keepalive is neither.
 */
export function carriesOutput(chunk: UpstreamChunk): boolean {
  if (chunk.usage) return true;
  return (chunk.choices ?? []).some(({ delta, finish_reason }) =>
    Boolean(finish_reason || delta?.content || delta?.reasoning_content || delta?.reasoning || delta?.tool_calls?.length),
  );
}
