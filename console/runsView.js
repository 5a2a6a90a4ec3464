import { call } from './api.js';
import { age } from './age.js';
import { el } from './dom.js';

const STATUSES = ['queued', 'running', 'waiting_for_approval', 'stopping', 'completed', 'failed', 'cancelled'];
const PAGE = 20;
const REFRESH_MS = 2000;

/**
 * The runs of every instance (`GET /v1/runs`), newest first, kept live: the first page is read
 * again every two seconds while the table is shown, new runs go on top and rows change in place.
 * `show()` and `hide()` start and stop that.
 */
export function createRunsView() {
  const filter = el(
    'select',
    { id: 'runs-status' },
    el('option', { value: '' }, 'all'),
    ...STATUSES.map((status) => el('option', { value: status }, status)),
  );
  const body = el('tbody');
  const more = el('button', { type: 'button', hidden: true }, 'Load more');
  const status = el('p', { class: 'runs-status', role: 'status' });
  const rows = new Map();
  let lastId;
  let timer;
  // A page asked for before the filter last changed is of another filter, and dropped.
  let filterChanges = 0;

  const cells = (run) => [
    el('td', {}, el('a', { href: `#/runs/${run.id}` }, run.id)),
    el('td', {}, el('span', { class: `status status-${run.status}` }, run.status)),
    el('td', {}, run.model),
    el('td', {}, el('time', { datetime: new Date(run.created_at * 1000).toISOString() }, age(run.created_at))),
    el('td', { class: 'number' }, run.usage ? String(run.usage.total_tokens) : '—'),
  ];
  const upsert = (run, place) => {
    const row = rows.get(run.id);
    if (row) return void row.replaceChildren(...cells(run));
    const made = el('tr', { 'data-run-id': run.id }, ...cells(run));
    rows.set(run.id, made);
    place(made);
  };
  const query = (after) => {
    const params = new URLSearchParams({ limit: String(PAGE) });
    if (filter.value) params.set('status', filter.value);
    if (after) params.set('after', after);
    return call('GET', `/v1/runs?${params}`);
  };
  const refresh = async () => {
    const changes = filterChanges;
    try {
      const page = await query();
      if (changes !== filterChanges) return;
      // Newest first: the new ones go on top in their order.
      let anchor = body.firstChild;
      for (const run of page.data) {
        upsert(run, (row) => body.insertBefore(row, anchor));
        anchor = rows.get(run.id).nextSibling;
      }
      if (lastId === undefined) {
        lastId = page.last_id ?? undefined;
        more.hidden = !page.has_more;
      }
      status.textContent = rows.size === 0 ? 'No runs yet.' : '';
    } catch (error) {
      if (changes === filterChanges) status.textContent = `Could not list the runs: ${error.message}`;
    }
  };
  const loadMore = async () => {
    const changes = filterChanges;
    const page = await query(lastId);
    if (changes !== filterChanges) return;
    for (const run of page.data) upsert(run, (row) => body.append(row));
    lastId = page.last_id ?? lastId;
    more.hidden = !page.has_more;
  };
  const reset = () => {
    filterChanges += 1;
    rows.clear();
    body.replaceChildren();
    lastId = undefined;
    void refresh();
  };
  filter.addEventListener('change', reset);
  more.addEventListener('click', () => void loadMore().catch((error) => (status.textContent = error.message)));

  const node = el(
    'section',
    { id: 'runs', class: 'view', 'aria-labelledby': 'runs-title' },
    el('h2', { id: 'runs-title' }, 'Runs'),
    el('div', { class: 'filters' }, el('label', { for: 'runs-status' }, 'Status'), filter),
    el(
      'div',
      { class: 'table-scroll' },
      el(
        'table',
        { class: 'runs' },
        el('caption', { class: 'visually-hidden' }, 'Runs, newest first, updated live'),
        el('thead', {}, el('tr', {}, ...['Run', 'Status', 'Model', 'Age', 'Tokens'].map((name) => el('th', { scope: 'col' }, name)))),
        body,
      ),
    ),
    status,
    more,
  );
  return {
    node,
    show() {
      reset();
      timer = setInterval(refresh, REFRESH_MS);
    },
    hide() {
      clearInterval(timer);
    },
  };
}
