import { readLog } from '../detached/readLog.js';
import type { EventLog } from '../store/EventLog.js';
import type { RunObject } from './runObject.js';

/** The output (and refusal) a run has streamed so far, rebuilt from the deltas its log kept. */
export async function storedOutput(log: EventLog, id: string): Promise<Pick<RunObject, 'output' | 'refusal'>> {
  let output = '';
  let refusal: string | null = null;
  await readLog(log, id, ({ type, data }) => {
    if (type === 'message.delta') output += (JSON.parse(data) as { delta: string }).delta;
    else if (type === 'refusal.delta') refusal = (refusal ?? '') + (JSON.parse(data) as { delta: string }).delta;
  });
  return { output, refusal };
}
