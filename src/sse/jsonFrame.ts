import { serializeFrame } from './serializeFrame.js';

/** One value as an SSE frame with its JSON as the data: `data: {...}\n\n`. */
export function jsonFrame(value: unknown): string {
  return serializeFrame({ data: JSON.stringify(value) });
}
