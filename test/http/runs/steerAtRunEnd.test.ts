import { describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/store/sqlite/SqliteStore.js';
import { holdingStore } from '../../support/holdingStore.js';
import { expectLateSteerRefused, heldLastCall } from '../../support/lateSteer.js';
import { nextInputAnswer } from '../../support/nextInputAnswer.js';
import { createRun, post } from '../../support/runsClient.js';
import { answer } from '../../support/scriptedUpstream.js';
import { useLlmGateway } from '../../support/startLlmGateway.js';

const gateways = useLlmGateway();

describe('a steer sent as its run ends', () => {
  it('is answered 409 once the agent has made its last model call, not 202 for a steer no model call will take', async () => {
    const sqlite = new SqliteStore({ dataDir: ':memory:' });
    // The run's agent is done and run.completed logged; its end waits at the save of its final state.
    const { store, held, release } = holdingStore(
      sqlite,
      (call, [run]) => call === 'runs.save' && (run as { status: string }).status === 'completed',
    );
    const { gateway, upstream } = await gateways.start([answer('Done.')], {}, {}, { store });
    const runId = await createRun(gateway.url);
    await held;

    const late = await post(`${gateway.url}/v1/runs/${runId}/steer`, { input: 'too late' });
    release();
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ error: { code: 'run_not_running', message: expect.stringContaining('status completed') } });
    expect(upstream.requests).toHaveLength(1);
    await sqlite.close();
  });

  it('is answered 409 once the run has ended, when its state still says running as its agent stops (a conversation being appended to)', async () => {
    const sqlite = new SqliteStore({ dataDir: ':memory:' });
    // The run's agent is done; run.completed waits for the run's input and answer to join the conversation.
    const { store, held, release } = holdingStore(sqlite, (call) => call === 'conversations.append');
    const { gateway, upstream } = await gateways.start([answer('Done.')], {}, {}, { store });
    const { id } = (await (await post(`${gateway.url}/v1/conversations`, {})).json()) as { id: string };
    const created = await post(`${gateway.url}/v1/runs`, { input: 'hi', conversation: id });
    const { run_id: runId } = (await created.json()) as { run_id: string };
    await held;

    const refused = nextInputAnswer('steer');
    const late = post(`${gateway.url}/v1/runs/${runId}/steer`, { input: 'too late' });
    expect(await refused).toBe(false);
    release();
    const answered = await late;
    expect(answered.status).toBe(409);
    expect(await answered.json()).toMatchObject({
      error: { code: 'run_not_running', message: expect.stringContaining('status completed') },
    });
    expect(upstream.requests).toHaveLength(1);
    await sqlite.close();
  });

  it('is answered 409 once the run has ended when it comes during the last model call maxIterations allows, which no steer follows', async () => {
    const lastCall = heldLastCall();
    const { gateway, upstream } = await gateways.start([lastCall.script], { maxIterations: 1 });
    const runId = await createRun(gateway.url);
    await upstream.request(0);

    await expectLateSteerRefused(gateway.url, runId, lastCall);
    expect(upstream.requests).toHaveLength(1);
  });
});
