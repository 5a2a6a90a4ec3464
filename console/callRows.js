import { approvalPrompt } from './approvalPrompt.js';
import { toolRow } from './toolRow.js';

/** The events `callRows` takes. */
export const CALL_EVENTS = new Set(['tool.started', 'tool.progress', 'tool.completed', 'approval.required', 'approval.resolved']);

/**
 * The rows of run `runId`'s tool calls and approvals, in `list`: `apply(event)` adds a row for
 * `tool.started` and `approval.required` (and returns it) and brings the row up to date for the
 * others; `stop()` ends the rows still running and the prompts still unanswered, so that no
 * spinner and no answer button outlives the run.
 */
export function callRows(runId, list) {
  const tools = new Map();
  const prompts = new Map();
  const add = (map, key, row) => {
    map.set(key, row);
    list.append(row.node);
    return row.node;
  };
  return {
    apply({ type, data }) {
      switch (type) {
        case 'tool.started':
          return add(tools, data.call_id, toolRow(data));
        case 'tool.progress':
          return void tools.get(data.call_id)?.progress(data);
        case 'tool.completed':
          return void tools.get(data.call_id)?.completed(data);
        case 'approval.required':
          return add(prompts, data.approval_id, approvalPrompt(runId, data));
        case 'approval.resolved':
          return void prompts.get(data.approval_id)?.resolved(data);
      }
    },
    stop() {
      for (const row of tools.values()) row.stop();
      for (const prompt of prompts.values()) prompt.stop();
    },
  };
}
