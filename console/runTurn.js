import { ApiError, call } from './api.js';
import { CALL_EVENTS, callRows } from './callRows.js';
import { el, spinner } from './dom.js';
import { couldNotFollow, followRun } from './followRun.js';
import { steerForm } from './steerForm.js';

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * One answer of the chat, as a detached run (`POST /v1/runs`) followed live: its reasoning folded
 * away, a refusal labelled apart from the answer, a row per tool call, approvals answered in place,
 * a steer box and Stop while it works, then usage and time to first token. Resolves with what the
 * conversation gained: the steers taken, as user messages, and the answer with its refusal, as the
 * server keeps them in a conversation (unless it failed or was empty).
 */
export async function runTurn(container, { model, input }) {
  const busy = spinner();
  const status = el('span', { class: 'turn-status', role: 'status' }, 'starting');
  const reasoningText = el('div', { class: 'reasoning-text' });
  const reasoning = el('details', { class: 'reasoning', hidden: true }, el('summary', {}, 'Reasoning'), reasoningText);
  const tools = el('ul', { class: 'tools', 'aria-label': 'Tool calls' });
  const answer = el('div', { class: 'answer-text' });
  const refusalText = el('div', { class: 'refusal-text' });
  const refusal = el('div', { class: 'refusal', hidden: true }, el('strong', { class: 'refusal-label' }, 'Refusal'), refusalText);
  const footer = el('p', { class: 'turn-footer' });
  const controls = el('div', { class: 'turn-controls' });
  const head = el('div', { class: 'turn-head' }, busy, status);
  const node = el('li', { class: 'message assistant', 'aria-busy': 'true' }, head, reasoning, tools, answer, refusal, controls, footer);
  container.append(node);

  const controller = new AbortController();
  const sentAt = performance.now();
  let firstTokenAt;
  let ended = false;
  let runId;
  let calls;
  const steers = [];

  const finish = (state, text) => {
    if (ended) return;
    ended = true;
    controller.abort();
    busy.remove();
    node.setAttribute('aria-busy', 'false');
    node.dataset.state = state;
    status.textContent = text;
    calls?.stop();
    controls.replaceChildren();
    const timing = [
      firstTokenAt === undefined ? undefined : `first token ${Math.round(firstTokenAt - sentAt)} ms`,
      `${seconds(performance.now() - sentAt)} in all`,
    ];
    footer.textContent = [footer.textContent, ...timing].filter(Boolean).join(' · ');
  };
  const firstToken = () => {
    if (firstTokenAt !== undefined) return;
    firstTokenAt = performance.now();
    status.textContent = 'answering';
  };
  const apply = (event) => {
    const { type, data } = event;
    if (CALL_EVENTS.has(type)) return void calls.apply(event);
    switch (type) {
      case 'message.delta':
        firstToken();
        answer.append(data.delta);
        break;
      case 'refusal.delta':
        firstToken();
        refusal.hidden = false;
        refusalText.append(data.delta);
        break;
      case 'reasoning.delta':
        firstToken();
        reasoning.hidden = false;
        reasoningText.append(data.delta);
        break;
      case 'run.steered':
        steers.push({ role: 'user', content: data.input });
        tools.append(el('li', { class: 'steered' }, 'steered: ', data.input));
        break;
      case 'run.completed':
        footer.textContent = `${data.usage.input_tokens} tokens in, ${data.usage.output_tokens} out`;
        finish('completed', 'done');
        break;
      case 'run.failed':
        finish('failed', `failed: ${data.error.message}`);
        break;
      case 'run.cancelled':
        finish('stopped', 'stopped');
        break;
    }
  };
  const stop = async () => {
    stopButton.disabled = true;
    status.textContent = 'stopping';
    try {
      const run = await call('POST', `/v1/runs/${encodeURIComponent(runId)}/stop`);
      if (run.status === 'cancelled') finish('stopped', 'stopped');
    } catch (error) {
      // It ended first (409): its own last event says how.
      if (ended || (error instanceof ApiError && error.status === 409)) return;
      // Any other refusal leaves it running: said, and Stop may be tried again.
      status.textContent = `could not stop: ${error.message}`;
      stopButton.disabled = false;
    }
  };
  const stopButton = el('button', { type: 'button', class: 'danger', onclick: stop }, 'Stop');

  try {
    ({ run_id: runId } = await call('POST', '/v1/runs', { model, input }));
    node.dataset.runId = runId;
    calls = callRows(runId, tools);
    status.textContent = 'working';
    head.append(' ', el('a', { href: `#/runs/${runId}` }, 'timeline'));
    controls.append(stopButton, steerForm(runId));
    await followRun(runId, {
      signal: controller.signal,
      onEvent: apply,
      onFailure: (failure) => {
        if (failure) status.textContent = couldNotFollow(failure);
        else status.textContent = firstTokenAt === undefined ? 'working' : 'answering';
      },
    });
  } catch (error) {
    finish('failed', `failed: ${error.message}`);
  }
  const said = answer.textContent + refusalText.textContent;
  const answered = node.dataset.state !== 'failed' && said !== '';
  return answered ? [...steers, { role: 'assistant', content: said }] : steers;
}
