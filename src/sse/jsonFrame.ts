/** One value as an SSE frame with its JSON as the data: `data: {...}\n\n` (JSON text holds no raw line break, so it is one line). */
export function jsonFrame(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}
