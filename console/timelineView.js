import { call } from './api.js';
import { CALL_EVENTS, callRows } from './callRows.js';
import { el } from './dom.js';
import { couldNotFollow, followRun, TERMINAL } from './followRun.js';
import { steerForm } from './steerForm.js';

const UNFINISHED = new Set(['queued', 'running', 'waiting_for_approval', 'stopping']);
const SAVED = 'rxgate.timeline';
const TEXT_EVENTS = new Set(['message.delta', 'reasoning.delta', 'refusal.delta']);

/** The events of the run this tab shows, kept so that a reload goes on after the last one (`Last-Event-ID`). */
function loadSaved(runId) {
  const saved = JSON.parse(sessionStorage.getItem(SAVED) ?? 'null');
  return saved?.runId === runId ? saved.events : [];
}

/** The paragraph that consecutive deltas of `type` read as; a refusal's is labelled, as it is not the answer. */
function paragraph(type) {
  if (type === 'refusal.delta')
    return el('li', { class: 'event-text refusal', 'data-type': type }, el('strong', { class: 'refusal-label' }, 'Refusal'), ' ');
  return el('li', { class: type === 'message.delta' ? 'event-text' : 'event-text reasoning', 'data-type': type });
}

/** What a later event of a call did, in a few words. */
function describeCall({ type, data }) {
  if (type === 'tool.progress') return `${data.name} ${data.progress}${data.total === undefined ? '' : `/${data.total}`}`;
  if (type === 'tool.completed')
    return data.error === undefined ? `${data.name} in ${data.duration_ms} ms` : `${data.name} failed: ${data.error}`;
  return `${data.tool}: ${data.choice}${data.reason ? ` (${data.reason})` : ''}`;
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
  const calls = callRows(runId, list);
  const waiting = new Set();
  let text;
  let shown;

  const setStatus = (status) => {
    shown = status;
    badge.textContent = status;
    badge.className = `status status-${status}`;
    if (!UNFINISHED.has(status)) {
      controls.replaceChildren();
      calls.stop();
    }
  };
  const line = (seq, type, ...children) =>
    el('li', { 'data-seq': seq, 'data-type': type }, el('span', { class: 'event-type' }, type), ' ', ...children);
  const render = (event) => {
    const { seq, type, data } = event;
    if (!TEXT_EVENTS.has(type)) text = undefined;
    if (type === 'approval.required') waiting.add(data.approval_id);
    if (type === 'approval.resolved') waiting.delete(data.approval_id);
    // As the server shows it: running, and waiting_for_approval while a call waits for a person.
    if ((shown === 'running' || shown === 'waiting_for_approval') && type.startsWith('approval.'))
      setStatus(waiting.size > 0 ? 'waiting_for_approval' : 'running');
    if (CALL_EVENTS.has(type)) {
      // A call's first event is its row; the later ones change that row and get a line of their own.
      const added = calls.apply(event);
      if (added) added.dataset.seq = seq;
      else list.append(line(seq, type, describeCall(event)));
      return;
    }
    switch (type) {
      case 'message.delta':
      case 'reasoning.delta':
      case 'refusal.delta':
        // Consecutive deltas read as one paragraph; each keeps its own element and number.
        if (text?.type !== type) {
          text = { type, node: paragraph(type) };
          list.append(text.node);
        }
        text.node.append(el('span', { 'data-seq': seq }, data.delta));
        return;
      case 'run.steered':
        list.append(line(seq, type, data.input));
        return;
      case 'run.upstream':
        list.append(line(seq, type, `${data.upstream} (${data.model})`));
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

  const start = async () => {
    const run = await call('GET', `/v1/runs/${encodeURIComponent(runId)}`);
    // What this tab kept is shown only once the key signed in now may see the run: it may be another key's.
    for (const event of events) render(event);
    // Its end is kept too: the log has nothing after it, and a follower would only be opened again and again.
    if (events.some(({ type }) => TERMINAL.has(type))) return;
    setStatus(run.status);
    if (UNFINISHED.has(run.status))
      controls.append(el('button', { type: 'button', class: 'danger', onclick: stop }, 'Stop'), steerForm(runId));
    await followRun(runId, {
      after: events.at(-1)?.seq,
      signal: controller.signal,
      onFailure: (failure) => {
        error.hidden = failure === undefined;
        error.textContent = failure === undefined ? '' : couldNotFollow(failure);
      },
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
