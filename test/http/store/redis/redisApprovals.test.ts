import { describe, expect, it } from 'vitest';
import { followRun } from '../../../support/followRun.js';
import { heldRunSaves } from '../../../support/heldRunSaves.js';
import { NOTE_NEEDS_APPROVAL } from '../../../support/noteNeedsApproval.js';
import { expectLateSteerRefused, heldLastCall } from '../../../support/lateSteer.js';
import { useInstances } from '../../../support/redisInstances.js';
import { answerApproval, createRun, post } from '../../../support/runsClient.js';
import type { Store } from '../../../../src/store/Store.js';
import { answer, frames, toolCalls, type UpstreamScript } from '../../../support/scriptedUpstream.js';

const { start } = useInstances();

describe('people in the loop across instances on one Redis', () => {
  it('takes an approval and steers sent to instance B for a run on instance A', async () => {
    const noteCall = toolCalls({ id: 'call_1', name: 'note', fragments: ['{"text":"milk"}'] });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // The answer after the call waits for the test, so that the run is still going when it answers twice.
    const held: UpstreamScript = { steps: [{ waitFor: released }, ...answer('Noted, in ink.').steps!] };
    const { upstream, instances } = await start([noteCall, held], 2, {}, undefined, NOTE_NEEDS_APPROVAL);
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const created = await post(`${a.url}/v1/runs`, { input: 'note milk' });
    const { run_id: runId } = (await created.json()) as { run_id: string };
    const events = await followRun(b.url, runId);
    const required = await events.until<{ approval_id: string }>('approval.required');

    expect(await (await fetch(`${b.url}/v1/runs/${runId}`)).json()).toMatchObject({
      status: 'waiting_for_approval',
      pending_approvals: [{ approval_id: required.approval_id, tool: 'note' }],
    });
    const unknown = await answerApproval(b.url, runId, { approval_id: 'apr_nope', choice: 'once' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'approval_not_found' } });

    for (const input of ['use ink', 'and blue ink']) {
      // Answered once instance A has put it in the run's queue.
      const steered = await post(`${b.url}/v1/runs/${runId}/steer`, { input });
      expect(steered.status).toBe(202);
      expect(await steered.json()).toEqual({ object: 'run.steer', run_id: runId, input, status: 'queued' });
    }
    const approved = await answerApproval(b.url, runId, { approval_id: required.approval_id, choice: 'once' }, 'req-b');
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({
      object: 'run.approval',
      run_id: runId,
      choice: 'once',
      resolved_by: 'api',
      request_id: 'req-b',
    });
    const again = await answerApproval(b.url, runId, { approval_id: required.approval_id, choice: 'deny' });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: 'approval_already_resolved' } });
    release();

    const rest = await events.rest();
    expect(rest.map((event) => event.event)).toEqual([
      'approval.required',
      'approval.resolved',
      'tool.started',
      'tool.completed',
      'run.steered',
      'run.steered',
      'message.delta',
      'run.completed',
    ]);
    const { body } = await upstream.request(1);
    expect((body.messages as unknown[]).slice(-3)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: 'Noted: milk' },
      { role: 'user', content: 'use ink' },
      { role: 'user', content: 'and blue ink' },
    ]);
    const late = await post(`${b.url}/v1/runs/${runId}/steer`, { input: 'too late' });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ error: { code: 'run_not_running' } });
  });

  it('shows a run on instance A as its log tells it on both instances, however far its stored copy lags: waiting, running, completed', async () => {
    const noteCall = toolCalls({ id: 'call_1', name: 'note', fragments: ['{"text":"milk"}'] });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held: UpstreamScript = { steps: [{ waitFor: released }, ...answer('Noted, in ink.').steps!] };
    let saves!: ReturnType<typeof heldRunSaves>;
    const wrap = (store: Store, index: number) => (index === 0 ? (saves = heldRunSaves(store)).store : store);
    const { instances } = await start([noteCall, held], 2, {}, undefined, NOTE_NEEDS_APPROVAL, wrap);
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const runId = await createRun(a.url, 'note milk');
    const events = await followRun(b.url, runId);
    const shown = () =>
      Promise.all([a, b].map(async ({ url }) => (await (await fetch(`${url}/v1/runs/${runId}`)).json()) as Record<string, unknown>));

    const required = await events.until<{ approval_id: string; expires_at: number }>('approval.required');
    const [onA, onB] = await shown();
    expect(onB).toEqual(onA);
    expect(onA).toMatchObject({
      status: 'waiting_for_approval',
      output: '',
      completed_at: null,
      pending_approvals: [
        {
          approval_id: required.approval_id,
          call_id: 'call_1',
          tool: 'note',
          arguments: '{"text":"milk"}',
          expires_at: required.expires_at,
        },
      ],
    });

    const approved = await answerApproval(b.url, runId, { approval_id: required.approval_id, choice: 'once' }, 'req-b');
    expect(approved.status).toBe(200);
    // The second answer is in flight while both instances are asked.
    const [again, running] = await Promise.all([
      answerApproval(b.url, runId, { approval_id: required.approval_id, choice: 'deny' }),
      shown(),
    ]);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: 'approval_already_resolved' } });
    expect(running[1]).toEqual(running[0]);
    expect(running[0]).toMatchObject({ status: 'running', pending_approvals: [], completed_at: null });

    release();
    expect((await events.rest()).map((event) => event.event)).toEqual([
      'approval.required',
      'approval.resolved',
      'tool.started',
      'tool.completed',
      'message.delta',
      'run.completed',
    ]);
    // Instance A has not stored its end yet: the log has it.
    const ended = { status: 'completed', output: 'Noted, in ink.', pending_approvals: [], error: null };
    const [endedOnA, endedOnB] = await shown();
    expect(endedOnA).toMatchObject(ended);
    expect(endedOnB).toMatchObject({ ...ended, usage: endedOnA!.usage });

    await saves.releaseFinal();
    const [storedOnA, storedOnB] = await shown();
    expect(storedOnB).toEqual(storedOnA);
    expect(storedOnA).toMatchObject({ ...ended, completed_at: expect.any(Number) });
    // A save made while the run went on, landing after its end, does not take it back.
    await saves.releaseLate();
    expect(await shown()).toEqual([storedOnA, storedOnA]);
    expect(await b.store.runs.get(runId)).toMatchObject({ status: 'completed' });
  });

  it('answers 409 for a steer sent to instance B that the run on instance A can no longer take, not 202 queued', async () => {
    const lastCall = heldLastCall();
    const { upstream, instances } = await start([lastCall.script], 2, {}, undefined, { maxIterations: 1 });
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const runId = await createRun(a.url);
    await upstream.request(0);

    // Instance A refuses it; instance B answers from the run's end.
    await expectLateSteerRefused(b.url, runId, lastCall);
    expect(upstream.requests).toHaveLength(1);
  });

  it('answers 202 sent, not queued, when the owner of the run does not say within stopWithinMs whether it took the steer', async () => {
    const held: UpstreamScript = { steps: [frames.role(), frames.text('Thinking'), { stall: true }] };
    const { upstream, instances } = await start([held], 2);
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const runId = await createRun(a.url);
    await upstream.request(0);
    // Instance A stops hearing of inputs (and renewing its lease), as a stalled process would.
    await a.coordinator.close();

    const sentAt = performance.now();
    const steered = await post(`${b.url}/v1/runs/${runId}/steer`, { input: 'anyone there?' });
    expect(steered.status).toBe(202);
    expect(await steered.json()).toEqual({ object: 'run.steer', run_id: runId, input: 'anyone there?', status: 'sent' });
    expect(performance.now() - sentAt).toBeGreaterThanOrEqual(b.coordinator.stopWithinMs - 50);
  });
});
