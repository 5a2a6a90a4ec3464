import { readLog } from '../detached/readLog.js';
import type { EventLog } from '../store/EventLog.js';
import type { OutputItem } from '../openai/responseObject.js';

interface Logged {
  readonly output_index: number;
  readonly item?: OutputItem;
  readonly delta?: string;
  readonly summary_index?: number;
}

/**
 * The output items a background response had streamed, rebuilt from the events its log kept: each
 * finished item as it was sent, and an item cut off mid-way with the text it had, `incomplete`.
 */
export async function storedOutput(log: EventLog, id: string): Promise<OutputItem[]> {
  const output: OutputItem[] = [];
  await readLog(log, id, ({ type, data }) => {
    const event = JSON.parse(data) as Logged;
    const item = output[event.output_index];
    if (type === 'response.output_item.added' || type === 'response.output_item.done') output[event.output_index] = event.item!;
    else if (type === 'response.output_text.delta' && item?.type === 'message') {
      const part = item.content[0];
      const text = (part?.type === 'output_text' ? part.text : '') + event.delta!;
      output[event.output_index] = { ...item, content: [{ type: 'output_text', text, annotations: [] }] };
    } else if (type === 'response.refusal.delta' && item?.type === 'message') {
      const part = item.content[0];
      const refusal = (part?.type === 'refusal' ? part.refusal : '') + event.delta!;
      output[event.output_index] = { ...item, content: [{ type: 'refusal', refusal }] };
    } else if (type === 'response.reasoning_summary_text.delta' && item?.type === 'reasoning') {
      const text = (item.summary[0]?.text ?? '') + event.delta!;
      output[event.output_index] = { ...item, summary: [{ type: 'summary_text', text }] };
    }
  });
  return output.map((item) =>
    'status' in item && item.status === 'in_progress' ? ({ ...item, status: 'incomplete' } as OutputItem) : item,
  );
}
