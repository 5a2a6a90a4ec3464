import type { Budget } from '../budget.js';
import { randomUUID } from 'node:crypto';
import { asyncScheduler, concatMap, defer, identity, map, tap } from 'rxjs';
import { instantiateOperators } from '../pipeline/protocolOperators.js';
import type { AgentEventOf } from '../agent/agentEvent.js';
import { InterruptReason } from '../agent/interruptReason.js';
import type { DetachedRun } from '../detached/DetachedRuns.js';
import { toLoggedEvent } from '../detached/loggedEvent.js';
import { RunInputs } from '../detached/RunInputs.js';
import { toConversationItems } from '../openai/toConversationItems.js';
import { InterruptedError } from '../errors/InterruptedError.js';
import type { HeldConversation } from '../openai/heldConversation.js';
import type { RunEvent } from './runEvent.js';
import { toRunError } from './runError.js';
import type { PendingApproval, RunObject } from './runObject.js';
import type { RunRequest } from './runRequest.js';
import type { RunsContext } from './runsContext.js';
import { shownRun } from './shownRun.js';
import { toRunEvents } from './toRunEvents.js';
import { withUpstreamEvents } from './withUpstreamEvents.js';
import type { RunTrace } from '../tracing/RunTrace.js';
import { spanIdOf } from '../tracing/spanIdOf.js';
import { traceIdOf } from '../tracing/traceIdOf.js';

/** A new run id, `run_` and 32 hex digits. */
export const newRunId = (): string => `run_${randomUUID().replaceAll('-', '')}`;

const now = () => Math.floor(Date.now() / 1000);

const toPendingApproval = (event: AgentEventOf<'approval_required'>): PendingApproval => ({
  approval_id: event.approvalId,
  call_id: event.callId,
  tool: event.name,
  arguments: event.arguments,
  expires_at: Math.ceil((event.expiresAt ?? 0) / 1000),
});

/** Who starts a run, and what it carries on from. */
export interface RunStart {
  /** The principal id the run belongs to. */
  readonly owner: string;
  /** The owner's key's budget, which each of the run's model calls holds against. Default: none. */
  readonly budget?: Budget;
  /** Default: a new one (`Idempotency-Key` claims one before the run starts). */
  readonly id?: string;
  /** The span of the request that starts it, which the run's spans hang below. Default: none. */
  readonly trace?: RunTrace;
  /** The conversation it continues, held until it ends. */
  readonly conversation?: HeldConversation;
}

/**
 * Starts a run detached from any connection, owned by `owner` (a principal id). Its status follows the run (`queued`, `running`,
 * then `completed`, `failed` or `cancelled`) and is stored at each step; its events are logged
 * for `GET /v1/runs/{id}/events`. A stop ends it `cancelled`; shutdown ends it `failed` with the
 * reason. With `conversation`, the run reads its items first, appends its input and answer when it
 * completes (nothing when it fails or is cancelled) and releases it when it ends. People's approvals and steers reach it through its `RunInputs`; while calls wait for an
 * answer it shows as `waiting_for_approval`. It is stored as it starts and as it ends, no more: between the two, another
 * instance shows it from its log, and a save in between could only land late. Resolves once the run is stored `running` (or the store refused it).
 */
export async function startRun(
  request: RunRequest,
  { agent, store, detached, defaultModel, approvalTimeoutMs, operators }: RunsContext,
  { owner, budget, id = newRunId(), trace, conversation }: RunStart,
): Promise<DetachedRun<RunObject>> {
  const model = request.model ?? defaultModel;
  let run: RunObject = {
    id,
    object: 'run',
    status: 'queued',
    model,
    created_at: now(),
    started_at: null,
    completed_at: null,
    output: '',
    refusal: null,
    usage: null,
    error: null,
    pending_approvals: [],
    ...(request.jobId === undefined ? {} : { job_id: request.jobId }),
    ...(trace ? { trace_id: traceIdOf(trace), span_id: spanIdOf(trace) } : {}),
  };
  const inputs = new RunInputs(approvalTimeoutMs);
  // The output so far is kept as a string and put into the run only when it is shown or saved:
  // a delta must not copy the whole run object.
  let output = '';
  let refusal: string | null = null;
  const stored = (): RunObject => ({
    ...run,
    output,
    refusal,
    pending_approvals: run.status === 'running' ? inputs.pending.map(toPendingApproval) : [],
  });
  const update = (patch: Partial<RunObject>) => {
    run = { ...run, ...patch };
    return stored();
  };
  const follow = (event: RunEvent) => {
    if (event.type === 'message.delta') output += event.delta;
    else if (event.type === 'refusal.delta') refusal = (refusal ?? '') + event.delta;
    else if (event.type === 'run.completed') {
      output = event.output;
      refusal = event.refusal;
      update({ status: 'completed', usage: event.usage, completed_at: now() });
    } else if (event.type === 'run.failed') update({ status: 'failed', error: event.error, completed_at: now() });
  };
  // Traced, each event names the trace of the request that started the run, which its spans belong to.
  const traceId = run.trace_id;
  const logged = (event: RunEvent, seq: number) => {
    const traced: RunEvent & { readonly trace_id?: string } = traceId ? { ...event, trace_id: traceId } : event;
    return toLoggedEvent(traced, seq);
  };
  const messages = [...request.system, ...(conversation?.history ?? []), ...request.input];
  // Its input and answer (a refusal included, as a response's) join the conversation before `run.completed` is logged, as a response's do before its terminal event.
  const appendCompleted = conversation
    ? concatMap(async (event: RunEvent) => {
        if (event.type === 'run.completed') {
          await conversation.append(
            toConversationItems([...request.input, { role: 'assistant', content: event.output + (event.refusal ?? '') }]),
          );
        }
        return event;
      })
    : identity;
  const started = await detached.start<RunObject>(id, {
    owner,
    kind: 'run',
    saveStart: () => store.runs.save(update({ status: 'running', started_at: now() }), owner),
    events$: (lifecycle) => {
      const { events, chunks } = instantiateOperators(operators, {
        cancellation: lifecycle.cancellation,
        model,
        scheduler: asyncScheduler,
      });
      return withUpstreamEvents((attemptObserver) =>
        defer(() =>
          agent.run(
            {
              messages,
              model,
              approvals: inputs.approvals,
              steers$: inputs.steers$,
              trace,
              attemptObserver,
              payer: budget ? { key: owner, reference: id, budget } : { key: owner, reference: id },
            },
            lifecycle.cancellation,
          ),
        ).pipe(
          lifecycle.record,
          tap((event) => inputs.follow(event)),
          events,
          toRunEvents(),
        ),
      ).pipe(chunks, appendCompleted, tap(follow), map(logged));
    },
    snapshot: () => shownRun(stored()),
    saveFinal: () => store.runs.save(stored()),
    inputs,
    onEnd: ({ reason, error: failure, nextSeq }) => {
      const owed: RunEvent[] = [];
      if (reason === InterruptReason.stopRequested) {
        owed.push({ type: 'run.cancelled', reason });
        update({ status: 'cancelled', completed_at: now() });
      } else if (reason !== undefined || run.status === 'running') {
        const error = toRunError(failure ?? new InterruptedError(reason ?? 'the run ended without an outcome', 'interrupted'));
        owed.push({ type: 'run.failed', error });
        update({ status: 'failed', error, completed_at: now() });
      }
      return owed.map((event, index) => logged(event, nextSeq + index));
    },
  });
  // However it ends, a refused start included, the conversation is free again.
  void started.ended.finally(() => conversation?.release());
  // A refused save has ended the run `failed` (kept here until the store takes its final state): still a 202.
  await started.started.catch(() => undefined);
  return started;
}
