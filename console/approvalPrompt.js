import { call } from './api.js';
import { el } from './dom.js';

const ANSWERED = { once: 'approved once', always: 'approved always', deny: 'denied' };

/**
 * A call that waits for a person: its tool and arguments, and Approve once / Always / Deny, which
 * answer in place (`POST /v1/runs/{id}/approval`). `resolved(event)` shows how it was answered,
 * here or anywhere else; `stop()` takes the buttons off one still unanswered once its run has ended.
 */
export function approvalPrompt(runId, { approval_id: approvalId, tool, arguments: args }) {
  const message = el('span', { class: 'approval-status', role: 'status' }, 'waits for your approval');
  const buttons = el('span', { class: 'approval-buttons', role: 'group', 'aria-label': `Answer the call of ${tool}` });
  const node = el(
    'li',
    { class: 'approval', 'data-approval-id': approvalId },
    el('code', {}, tool),
    ' ',
    el('span', { class: 'tool-args' }, args),
    ' ',
    message,
    buttons,
  );
  let settled = false;
  const resolved = ({ choice, reason, resolved_by: by }) => {
    settled = true;
    buttons.remove();
    node.dataset.state = choice;
    message.textContent = [ANSWERED[choice] ?? choice, by === 'timeout' ? '(timed out)' : '', reason ? `: ${reason}` : '']
      .filter(Boolean)
      .join(' ');
  };
  const answer = async (choice) => {
    for (const button of buttons.querySelectorAll('button')) button.disabled = true;
    try {
      const answered = await call('POST', `/v1/runs/${encodeURIComponent(runId)}/approval`, { approval_id: approvalId, choice });
      // The run's approval.resolved came first, and said it all.
      if (settled) return;
      // With several instances the answer may be only sent (202); the run's approval.resolved event says the rest.
      if (answered.choice) resolved(answered);
      else message.textContent = 'answer sent';
    } catch (error) {
      // Refused because the run ended meanwhile: `stop()` has said so already.
      if (settled) return;
      message.textContent = `could not answer: ${error.message}`;
      for (const button of buttons.querySelectorAll('button')) button.disabled = false;
    }
  };
  buttons.append(
    el('button', { type: 'button', onclick: () => answer('once') }, 'Approve once'),
    el('button', { type: 'button', onclick: () => answer('always') }, 'Always'),
    el('button', { type: 'button', class: 'danger', onclick: () => answer('deny') }, 'Deny'),
  );
  // A run that ends while its call waits (a stop, a failure) resolves nothing: the call is never answered.
  const stop = () => {
    if (settled) return;
    settled = true;
    buttons.remove();
    node.dataset.state = 'unanswered';
    message.textContent = 'not answered: the run ended';
  };
  return { node, resolved, stop };
}
