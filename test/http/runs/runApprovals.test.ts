import { describe, expect, it } from 'vitest';
import { InterruptReason } from '../../../src/agent/interruptReason.js';
import type { AppConfig } from '../../../src/http/createApp.js';
import { followRun } from '../../support/followRun.js';
import { nextInputAnswer } from '../../support/nextInputAnswer.js';
import { answerApproval, createRun, post } from '../../support/runsClient.js';
import { NOTE_NEEDS_APPROVAL } from '../../support/noteNeedsApproval.js';
import { answer, toolCalls, type ScriptedUpstream, type UpstreamScript } from '../../support/scriptedUpstream.js';
import { useLlmGateway, type LlmGateway } from '../../support/startLlmGateway.js';

const gateways = useLlmGateway();
let upstream: ScriptedUpstream;
let app: LlmGateway;

/** The gateway in front of a scripted upstream, with `note` (which needs approval here) and `calculator`. */
async function start(scripts: readonly UpstreamScript[], config: Partial<AppConfig> = {}) {
  ({ upstream, gateway: app } = await gateways.start(scripts, NOTE_NEEDS_APPROVAL, config));
  return app.url;
}

const noteCall = (id: string, text = 'milk') => toolCalls({ id, name: 'note', fragments: [JSON.stringify({ text })] });

/** The content of the last message the model was sent in its `index`th call. */
async function lastMessageOf(index: number) {
  const { body } = await upstream.request(index);
  return (body.messages as { role: string; content: string }[]).at(-1);
}

interface Required {
  readonly approval_id: string;
  readonly call_id: string;
  readonly tool: string;
  readonly arguments: string;
  readonly expires_at: number;
}

describe('a run whose tool call needs approval', () => {
  it('waits for it, shows waiting_for_approval, and on "once" runs the call; the events resume with Last-Event-ID', async () => {
    const url = await start([noteCall('call_1'), answer('Noted.')]);
    const runId = await createRun(url, 'note that we need milk');
    const events = await followRun(url, runId);
    const required = await events.until<Required>('approval.required');
    expect(required).toMatchObject({
      approval_id: expect.stringMatching(/^apr_/),
      call_id: 'call_1',
      tool: 'note',
      arguments: '{"text":"milk"}',
    });
    expect(required.expires_at).toBeGreaterThan(Date.now() / 1000 + 500);

    const waiting = (await (await fetch(`${url}/v1/runs/${runId}`)).json()) as Record<string, unknown>;
    expect(waiting).toMatchObject({
      status: 'waiting_for_approval',
      pending_approvals: [{ approval_id: required.approval_id, tool: 'note' }],
    });
    expect(upstream.requests).toHaveLength(1);

    const unknown = await answerApproval(url, runId, { approval_id: 'apr_nope', choice: 'once' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'approval_not_found', param: 'approval_id', type: 'not_found_error' } });
    const badChoice = await answerApproval(url, runId, { approval_id: required.approval_id, choice: 'yes' });
    expect(badChoice.status).toBe(400);
    expect(await badChoice.json()).toMatchObject({
      error: { code: 'invalid_value', param: 'choice', message: expect.stringContaining('"once", "always", "deny"') },
    });
    const noChoice = await answerApproval(url, runId, { approval_id: required.approval_id });
    expect(noChoice.status).toBe(400);
    expect(await noChoice.json()).toMatchObject({
      error: { code: 'missing_required_parameter', param: 'choice', message: expect.stringContaining('"once", "always", "deny"') },
    });
    expect(events.seen.map((event) => event.event)).not.toContain('tool.started');

    const approved = await answerApproval(url, runId, { approval_id: required.approval_id, choice: 'once' }, 'req-ok');
    expect(approved.status).toBe(200);
    expect(await approved.json()).toEqual({
      object: 'run.approval',
      run_id: runId,
      approval_id: required.approval_id,
      call_id: 'call_1',
      tool: 'note',
      choice: 'once',
      resolved_by: 'api',
      request_id: 'req-ok',
      resolved_at: expect.any(Number),
    });
    const again = await answerApproval(url, runId, { approval_id: required.approval_id, choice: 'deny' });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: 'approval_already_resolved' } });

    const rest = await events.rest();
    expect(rest.map((event) => event.event)).toEqual([
      'approval.required',
      'approval.resolved',
      'tool.started',
      'tool.completed',
      'message.delta',
      'run.completed',
    ]);
    expect(JSON.parse(rest[3]!.data)).toMatchObject({ result: 'Noted: milk' });
    expect(await lastMessageOf(1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'Noted: milk' });

    const resumed = await (await followRun(url, runId, required.id)).rest();
    expect(resumed).toEqual(rest.slice(1));
    const finished = (await (await fetch(`${url}/v1/runs/${runId}`)).json()) as Record<string, unknown>;
    expect(finished).toMatchObject({ status: 'completed', pending_approvals: [], output: 'Noted.' });

    const late = await answerApproval(url, runId, { approval_id: required.approval_id, choice: 'once' });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ error: { code: 'run_not_running' } });
  });

  it('on "always", does not wait for the later calls of the same tool', async () => {
    const url = await start([noteCall('call_1'), noteCall('call_2', 'eggs'), answer('Both noted.')]);
    const runId = await createRun(url, 'note that we need milk');
    const events = await followRun(url, runId);
    const required = await events.until<Required>('approval.required');

    expect((await answerApproval(url, runId, { approval_id: required.approval_id, choice: 'always' })).status).toBe(200);

    const types = (await events.rest()).map((event) => event.event);
    expect(types.filter((type) => type === 'approval.required')).toHaveLength(1);
    expect(types.filter((type) => type === 'tool.completed')).toHaveLength(2);
    expect(await lastMessageOf(2)).toEqual({ role: 'tool', tool_call_id: 'call_2', content: 'Noted: eggs' });
  });

  it('on "always", lets the calls of the same tool that already wait in the turn go on too, each resolved in the log', async () => {
    const twoNotes = toolCalls(
      { id: 'call_1', name: 'note', fragments: ['{"text":"milk"}'] },
      { id: 'call_2', name: 'note', fragments: ['{"text":"eggs"}'] },
    );
    const url = await start([twoNotes, answer('Both noted.')]);
    const runId = await createRun(url, 'note milk and eggs');
    const events = await followRun(url, runId);
    const first = await events.until<Required>('approval.required');
    const second = await events.until<Required>('approval.required');

    expect((await answerApproval(url, runId, { approval_id: first.approval_id, choice: 'always' })).status).toBe(200);

    const rest = await events.rest();
    const resolved = rest
      .filter((event) => event.event === 'approval.resolved')
      .map((event) => JSON.parse(event.data) as Record<string, unknown>);
    expect(resolved).toEqual([
      expect.objectContaining({ approval_id: first.approval_id, call_id: 'call_1', choice: 'always', resolved_by: 'api' }),
      expect.objectContaining({
        approval_id: second.approval_id,
        call_id: 'call_2',
        choice: 'always',
        resolved_by: 'api',
        reason: `"always" was answered to ${first.approval_id}`,
      }),
    ]);
    expect(rest.filter((event) => event.event === 'tool.completed')).toHaveLength(2);
    const late = await answerApproval(url, runId, { approval_id: second.approval_id, choice: 'deny' });
    expect(late.status).toBe(409);
  });

  it('on "deny", never runs the call: the model reads that a person refused it, with the reason', async () => {
    const url = await start([noteCall('call_1'), answer('Understood.')]);
    const runId = await createRun(url, 'note that we need milk');
    const events = await followRun(url, runId);
    const required = await events.until<Required>('approval.required');

    const denied = await answerApproval(url, runId, {
      approval_id: required.approval_id,
      choice: 'deny',
      reason: 'not today',
    });
    expect(await denied.json()).toMatchObject({ choice: 'deny', reason: 'not today', resolved_by: 'api' });

    const rest = await events.rest();
    expect(rest.map((event) => event.event)).not.toContain('tool.started');
    expect(JSON.parse(rest.find((event) => event.event === 'tool.completed')!.data)).toMatchObject({
      error: 'a person refused this call: not today',
    });
    expect(await lastMessageOf(1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: 'Error: a person refused this call: not today',
    });
  });

  it('denies a call nobody answered within RXGATE_APPROVAL_TIMEOUT_MS, with a reason that says it timed out, and a late answer is told so', async () => {
    let goOn!: () => void;
    const held = new Promise<void>((resolve) => (goOn = resolve));
    const url = await start([noteCall('call_1'), { steps: [{ waitFor: held }, ...answer('Nobody answered.').steps!] }], {
      approvalTimeoutMs: 200,
    });
    const runId = await createRun(url, 'note that we need milk');
    const events = await followRun(url, runId);

    const resolved = await events.until<Required>('approval.resolved');
    expect(resolved).toMatchObject({
      choice: 'deny',
      resolved_by: 'timeout',
      reason: 'timed out: nobody answered within 200 ms (RXGATE_APPROVAL_TIMEOUT_MS)',
    });
    const late = await answerApproval(url, runId, { approval_id: resolved.approval_id, choice: 'once' });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({
      error: {
        code: 'approval_already_resolved',
        message: `rxgate: approval '${resolved.approval_id}' has already been resolved (deny, by timeout); each approval is answered once`,
      },
    });
    goOn();
    await events.rest();
    expect(await lastMessageOf(1)).toMatchObject({
      role: 'tool',
      content: 'Error: the call was not approved: timed out: nobody answered within 200 ms (RXGATE_APPROVAL_TIMEOUT_MS)',
    });
  });

  it('ends cancelled on a stop while it waits; the call never starts and the model is not called again', async () => {
    const url = await start([noteCall('call_1'), answer('never')]);
    const runId = await createRun(url, 'note that we need milk');
    const events = await followRun(url, runId);
    const required = await events.until<Required>('approval.required');

    const stopped = await post(`${url}/v1/runs/${runId}/stop`, {});
    expect(await stopped.json()).toMatchObject({ status: 'cancelled', pending_approvals: [] });

    expect((await events.rest()).map((event) => event.event)).toEqual(['approval.required', 'run.cancelled']);
    expect(upstream.requests).toHaveLength(1);
    const late = await answerApproval(url, runId, { approval_id: required.approval_id, choice: 'once' });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ error: { code: 'run_not_running' } });
  });
});

describe('a run that is ending', () => {
  it('answers an approval or a steer sent while it stores its end as the finished run it is, not as an unknown approval or a queued steer', async () => {
    const url = await start([noteCall('call_1'), answer('never')]);
    const runId = await createRun(url, 'note that we need milk');
    const events = await followRun(url, runId);
    const required = await events.until<Required>('approval.required');

    // The run's final save is held: it has stopped, and is still storing its end.
    const { runs } = app.store;
    const save = runs.save.bind(runs);
    let reached!: () => void;
    const saving = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    runs.save = async (run, owner) => {
      if (run.status === 'cancelled') {
        reached();
        await held;
      }
      return save(run, owner);
    };
    const stopped = post(`${url}/v1/runs/${runId}/stop`, {});
    await saving;

    // Both reach the run while its end is stored, and wait for that end to answer.
    const answerRefused = nextInputAnswer('answer');
    const late = answerApproval(url, runId, { approval_id: required.approval_id, choice: 'once' });
    expect(await answerRefused).toEqual({ refused: 'run_ended' });
    const steerRefused = nextInputAnswer('steer');
    const steered = post(`${url}/v1/runs/${runId}/steer`, { input: 'too late' });
    expect(await steerRefused).toBe(false);
    release();
    expect((await stopped).status).toBe(200);
    for (const response of [await late, await steered]) {
      expect(response.status).toBe(409);
      expect(await response.json()).toMatchObject({
        error: { code: 'run_not_running', message: expect.stringContaining('status cancelled') },
      });
    }
    expect((await events.rest()).map((event) => event.event)).toEqual(['approval.required', 'run.cancelled']);
    expect(upstream.requests).toHaveLength(1);
  });
});

describe('a run waiting for approval at shutdown', () => {
  it('ends failed with "Server shutting down"; the call never starts', async () => {
    const url = await start([noteCall('call_1'), answer('never')]);
    const runId = await createRun(url, 'note that we need milk');
    const events = await followRun(url, runId);
    await events.until('approval.required');

    await app.activeRuns.stopAll(InterruptReason.shuttingDown);

    expect((await events.rest()).map((event) => event.event)).toEqual(['approval.required', 'run.failed']);
    expect(await (await fetch(`${url}/v1/runs/${runId}`)).json()).toMatchObject({
      status: 'failed',
      pending_approvals: [],
      error: { message: 'rxgate: Server shutting down', code: 'interrupted' },
    });
    expect(upstream.requests).toHaveLength(1);
  });
});

describe('steering a run', () => {
  it('queues steers in order and adds them at the next model call, after the tool calls ended', async () => {
    const url = await start([noteCall('call_1'), answer('Noted, in ink.')]);
    const runId = await createRun(url, 'note that we need milk');
    const events = await followRun(url, runId);
    const required = await events.until<Required>('approval.required');

    for (const input of ['use ink', 'and blue ink']) {
      const steered = await post(`${url}/v1/runs/${runId}/steer`, { input });
      expect(steered.status).toBe(202);
      expect(await steered.json()).toEqual({ object: 'run.steer', run_id: runId, input, status: 'queued' });
    }
    const empty = await post(`${url}/v1/runs/${runId}/steer`, { input: ' ' });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: { code: 'invalid_value', param: 'input' } });
    expect(upstream.requests).toHaveLength(1);
    await answerApproval(url, runId, { approval_id: required.approval_id, choice: 'once' });

    const rest = await events.rest();
    expect(rest.filter((event) => event.event === 'run.steered').map((event) => JSON.parse(event.data))).toEqual([
      { type: 'run.steered', input: 'use ink' },
      { type: 'run.steered', input: 'and blue ink' },
    ]);
    const { body } = await upstream.request(1);
    expect((body.messages as unknown[]).slice(-3)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: 'Noted: milk' },
      { role: 'user', content: 'use ink' },
      { role: 'user', content: 'and blue ink' },
    ]);

    const ended = await post(`${url}/v1/runs/${runId}/steer`, { input: 'too late' });
    expect(ended.status).toBe(409);
    expect(await ended.json()).toMatchObject({ error: { code: 'run_not_running' } });
    const unknown = await post(`${url}/v1/runs/run_nope/steer`, { input: 'hi' });
    expect(unknown.status).toBe(404);
  });
});

describe('Chat Completions', () => {
  it('does not offer the model a tool that needs approval: nobody could answer it there', async () => {
    const url = await start([answer('ok')]);
    const response = await post(`${url}/v1/chat/completions`, { messages: [{ role: 'user', content: 'note milk' }] });
    expect(response.status).toBe(200);
    const { body } = await upstream.request(0);
    expect((body.tools as { function: { name: string } }[]).map((tool) => tool.function.name)).toEqual(['calculator']);
  });
});
