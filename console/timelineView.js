import { call } from './api.js';
import { approvalPrompt } from './approvalPrompt.js';
import { el } from './dom.js';
import { followRun, TERMINAL } from './followRun.js';
import { steerForm } from './steerForm.js';
import { toolRow } from './toolRow.js';

const UNFINISHED = new Set(['queued', 'running', 'waiting_for_approval', 'stopping']);
const SAVED = 'rxgate.timeline';

/** The events of the run this tab shows, kept so that a reload goes on after the last one (`Last-Event-ID`). */
function loadSaved(runId) {
  const saved = JSON.parse(sessionStorage.getItem(SAVED) ?? 'null');
  return saved?.runId === runId ? saved.events : [];
}

/**
 * A run's timeline: its events as they happen (one element per event, `data-seq` its sequence
 * number), with Stop, a steer box and approvals while it runs. The events seen are kept for the
 * tab, so that after a reload the timeline shows them and follows from after the last.
 * Returns the section and `close()`.
 */
export function openTimeline(runId) {
  const events = loadSaved(runId);
  const controller = new AbortController();
  const badge = el('span', { class: 'status', role: 'status' });
  const list = el('ol', { class: 'timeline', 'aria-label': 'Events' });
  const controls = el('div', { class: 'turn-controls' });
  const error = el('p', { class: 'error', role: 'alert', hidden: true });
  const rows = new Map();
  const prompts = new Map();
  let text;

  const setStatus = (status) => {
    badge.textContent = status;
    badge.className = `status status-${status}`;
    if (!UNFINISHED.has(status)) {
      controls.replaceChildren();
      for (const row of rows.values()) row.stop();
    }
  };
  const line = (seq, type, ...children) =>
    el('li', { 'data-seq': seq, 'data-type': type }, el('span', { class: 'event-type' }, type), ' ', ...children);
  const render = ({ seq, type, data }) => {
    if (type !== 'message.delta' && type !== 'reasoning.delta') text = undefined;
    switch (type) {
      case 'message.delta':
      case 'reasoning.delta':
        // Consecutive deltas read as one paragraph; each keeps its own element and number.
        if (text?.type !== type) {
          text = { type, node: el('li', { class: type === 'message.delta' ? 'event-text' : 'event-text reasoning', 'data-type': type }) };
          list.append(text.node);
        }
        text.node.append(el('span', { 'data-seq': seq }, data.delta));
        return;
      case 'tool.started': {
        const row = toolRow(data);
        rows.set(data.call_id, row);
        row.node.dataset.seq = seq;
        list.append(row.node);
        return;
      }
      case 'tool.progress':
        rows.get(data.call_id)?.progress(data);
        list.append(line(seq, type, data.name, ` ${data.progress}`));
        return;
      case 'tool.completed':
        rows.get(data.call_id)?.completed(data);
        list.append(line(seq, type, data.name, data.error === undefined ? ` in ${data.duration_ms} ms` : ` failed: ${data.error}`));
        return;
      case 'approval.required': {
        const prompt = approvalPrompt(runId, data);
        prompts.set(data.approval_id, prompt);
        prompt.node.dataset.seq = seq;
        list.append(prompt.node);
        return;
      }
      case 'approval.resolved':
        prompts.get(data.approval_id)?.resolved(data);
        list.append(line(seq, type, `${data.tool}: ${data.choice}`, data.reason ? ` (${data.reason})` : ''));
        return;
      case 'run.steered':
        list.append(line(seq, type, data.input));
        return;
      case 'run.completed':
        list.append(line(seq, type, `${data.usage.total_tokens} tokens`));
        return setStatus('completed');
      case 'run.failed':
        list.append(line(seq, type, data.error.message));
        return setStatus('failed');
      case 'run.cancelled':
        list.append(line(seq, type, data.reason));
        return setStatus('cancelled');
      default:
        list.append(line(seq, type));
    }
  };
  const stop = async () => {
    try {
      setStatus((await call('POST', `/v1/runs/${encodeURIComponent(runId)}/stop`)).status);
    } catch (failure) {
      error.hidden = false;
      error.textContent = failure.message;
    }
  };

  for (const event of events) render(event);
  const start = async () => {
    const run = await call('GET', `/v1/runs/${encodeURIComponent(runId)}`);
    if (!events.some(({ type }) => TERMINAL.has(type))) setStatus(run.status);
    if (UNFINISHED.has(run.status))
      controls.append(el('button', { type: 'button', class: 'danger', onclick: stop }, 'Stop'), steerForm(runId));
    await followRun(runId, {
      after: events.at(-1)?.seq,
      signal: controller.signal,
      onEvent: (event) => {
        events.push(event);
        sessionStorage.setItem(SAVED, JSON.stringify({ runId, events }));
        render(event);
      },
    });
  };
  start().catch((failure) => {
    error.hidden = false;
    error.textContent = failure.message;
  });

  const node = el(
    'section',
    { id: 'timeline', class: 'view', 'aria-labelledby': 'timeline-title' },
    el('p', {}, el('a', { href: '#/runs' }, '← Runs')),
    el('h2', { id: 'timeline-title' }, 'Run ', el('code', {}, runId), ' ', badge),
    controls,
    error,
    list,
  );
  return { node, close: () => controller.abort() };
}
