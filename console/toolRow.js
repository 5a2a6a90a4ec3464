import { el, spinner } from './dom.js';

/**
 * A tool call's row: it starts with a spinner, shows progress, and ends with its duration or its
 * error; `stop()` ends it as stopped, so no spinner outlives the run.
 */
export function toolRow({ name, arguments: args }) {
  const busy = spinner();
  const status = el('span', { class: 'tool-status' }, 'running');
  const node = el(
    'li',
    { class: 'tool', 'data-state': 'running' },
    busy,
    el('code', {}, name),
    ' ',
    el('span', { class: 'tool-args' }, args),
    ' ',
    status,
  );
  const end = (state, text) => {
    busy.remove();
    node.dataset.state = state;
    status.textContent = text;
  };
  return {
    node,
    progress({ progress, total, message }) {
      status.textContent = [total === undefined ? `${progress}` : `${progress}/${total}`, message].filter(Boolean).join(' ');
    },
    completed({ error, duration_ms: durationMs }) {
      if (error === undefined) end('done', `done in ${durationMs} ms`);
      else end('failed', `failed after ${durationMs} ms: ${error}`);
    },
    stop() {
      if (node.dataset.state === 'running') end('stopped', 'stopped');
    },
  };
}
