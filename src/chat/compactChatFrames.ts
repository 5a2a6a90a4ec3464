import type { ChatCompletionChunk } from './chatCompletionChunk.js';
import { serializeFrame } from '../sse/serializeFrame.js';

const DATA_PREFIX = 'data: ';

/** The chunk of a frame that carries nothing but a content delta, else undefined. */
function contentOnlyChunk(frame: string): ChatCompletionChunk | undefined {
  if (!frame.startsWith(`${DATA_PREFIX}{`)) return undefined;
  const chunk = JSON.parse(frame.slice(DATA_PREFIX.length)) as ChatCompletionChunk;
  const [choice] = chunk.choices ?? [];
  const keys = choice ? Object.keys(choice.delta) : [];
  const isContentOnly = choice?.finish_reason === null && keys.length === 1 && keys[0] === 'content';
  return isContentOnly ? chunk : undefined;
}

/**
 * What a slow client is owed, made smaller without losing a character: adjacent content-only
 * chunk frames become one frame with the concatenated content. Everything else keeps its place.
 */
export function compactChatFrames(frames: readonly string[]): string[] {
  const compacted: string[] = [];
  let run: { chunk: ChatCompletionChunk; content: string } | undefined;
  const flush = () => {
    if (!run) return;
    const [choice] = run.chunk.choices;
    compacted.push(serializeFrame({ data: JSON.stringify({ ...run.chunk, choices: [{ ...choice, delta: { content: run.content } }] }) }));
    run = undefined;
  };
  for (const frame of frames) {
    const chunk = contentOnlyChunk(frame);
    if (!chunk) {
      flush();
      compacted.push(frame);
    } else if (run) {
      run.content += chunk.choices[0]!.delta.content!;
    } else {
      run = { chunk, content: chunk.choices[0]!.delta.content! };
    }
  }
  flush();
  return compacted;
}
