import { afterEach, describe, expect, it } from 'vitest';
import { recoverRuns } from '../../../src/runs/recoverRuns.js';
import type { RunEvent } from '../../../src/runs/runEvent.js';
import type { RunObject } from '../../../src/runs/runObject.js';
import { SqliteStore } from '../../../src/store/sqlite/SqliteStore.js';

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

const running = (id: string): RunObject => ({
  id,
  object: 'run',
  status: 'running',
  model: 'm',
  created_at: 1,
  started_at: 1,
  completed_at: null,
  output: '',
  refusal: null,
  usage: null,
  error: null,
  pending_approvals: [],
});

/** A store holding run `id` stored running, its log holding `events`: what a process that died mid-run left. */
async function leftBehind(id: string, events: readonly RunEvent[]) {
  const store = new SqliteStore({ dataDir: ':memory:', flushMs: 1 });
  stores.push(store);
  await store.runs.save(running(id), 'default');
  await store.events.append(
    id,
    events.map((event, seq) => ({ seq, type: event.type, data: JSON.stringify(event) })),
  );
  return store;
}

const usage = { input_tokens: 1, output_tokens: 2, total_tokens: 3 };

describe('recoverRuns', () => {
  it('marks a run cut off mid-answer failed with the output its log kept, and ends its log with run.failed', async () => {
    const store = await leftBehind('run_cut', [{ type: 'message.delta', delta: 'Once upon' }]);
    expect(await recoverRuns(store, 5_000)).toBe(1);
    expect(await store.runs.get('run_cut')).toMatchObject({
      status: 'failed',
      output: 'Once upon',
      completed_at: 5,
      error: { code: 'interrupted' },
    });
    expect((await store.events.last('run_cut'))?.type).toBe('run.failed');
  });

  it('stores a run whose log ended before its process stored the end as the log ended it, and appends nothing', async () => {
    const store = await leftBehind('run_done', [
      { type: 'message.delta', delta: 'Done' },
      { type: 'run.completed', output: 'Done', refusal: null, usage },
    ]);
    expect(await recoverRuns(store, 5_000)).toBe(1);
    expect(await store.runs.get('run_done')).toMatchObject({ status: 'completed', output: 'Done', usage, error: null, completed_at: 5 });
    expect((await store.events.last('run_done'))?.type).toBe('run.completed');
  });
});
