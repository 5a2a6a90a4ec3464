import { call } from './api.js';
import { el } from './dom.js';

let forms = 0;

/** What each receipt of `POST /v1/runs/{id}/steer` means for the person who sent it. */
const RECEIPTS = {
  queued: 'queued: it joins the run at its next model call',
  sent: 'sent to the instance running it; the timeline shows when the run takes it',
};

/** A box to steer a running run: the text joins its conversation at its next model call (`POST /v1/runs/{id}/steer`). */
export function steerForm(runId) {
  const id = `steer-${++forms}`;
  const input = el('input', { id, type: 'text', autocomplete: 'off', required: true });
  const status = el('span', { class: 'steer-status', role: 'status' });
  const submit = async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text === '') return;
    try {
      const receipt = await call('POST', `/v1/runs/${encodeURIComponent(runId)}/steer`, { input: text });
      input.value = '';
      status.textContent = RECEIPTS[receipt.status] ?? receipt.status;
    } catch (error) {
      status.textContent = `could not steer: ${error.message}`;
    }
  };
  return el(
    'form',
    { class: 'steer', onsubmit: submit },
    el('label', { for: id }, 'Steer this run'),
    input,
    el('button', { type: 'submit' }, 'Steer'),
    status,
  );
}
