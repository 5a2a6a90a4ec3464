import { map, type OperatorFunction } from 'rxjs';
import { serializeFrame, type SseMessage } from './serializeFrame.js';

const asJsonData = (value: unknown): SseMessage => ({ data: JSON.stringify(value) });

/**
 * Serialises each value as one SSE frame; by default its JSON as the `data`.
 *
 * ```
 * source:   --a-----b--|
 * result:   --A-----B--|     A = "data: {...a}\n\n"
 * ```
 */
export function sseFrames<T>(toMessage: (value: T) => SseMessage = asJsonData): OperatorFunction<T, string> {
  return map((value) => serializeFrame(toMessage(value)));
}
