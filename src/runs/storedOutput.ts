import { readLog } from '../detached/readLog.js';
import type { EventLog } from '../store/EventLog.js';

/** The output a run has streamed so far, rebuilt from the deltas its log kept. */
export async function storedOutput(log: EventLog, id: string): Promise<string> {
  let output = '';
  await readLog(log, id, ({ type, data }) => {
    if (type === 'message.delta') output += (JSON.parse(data) as { delta: string }).delta;
  });
  return output;
}
