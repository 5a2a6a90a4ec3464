import { randomUUID } from 'node:crypto';
import { recordRunMetrics } from '../../metrics/recordRunMetrics.js';
import { defer, map, tap } from 'rxjs';
import { InterruptReason } from '../../agent/interruptReason.js';
import type { RunObject } from '../../protocol/runs/runObject.js';
import type { RunEvent } from '../../protocol/runs/runEvent.js';
import { toRunEvents } from '../../protocol/runs/toRunEvents.js';
import { toLoggedEvent } from '../../store/loggedEvent.js';
import type { RunsContext } from './runsContext.js';
import type { RunRequest } from './runRequest.js';

const now = () => Math.floor(Date.now() / 1000);

/**
 * Starts a run detached from any connection and returns it as first stored. Its status follows
 * the run (`queued`, `running`, then `completed`, `failed` or `cancelled`) and is stored at each
 * step; its events are logged for `GET /v1/runs/{id}/events`. A stop ends it `cancelled`;
 * shutdown ends it `failed` with the reason.
 */
export function startRun(request: RunRequest, context: RunsContext): RunObject {
  const { agent, store, detached, liveRuns } = context;
  detached.assertCapacity();
  const id = `run_${randomUUID().replaceAll('-', '')}`;
  const model = request.model ?? context.defaultModel;
  let run: RunObject = {
    id,
    object: 'run',
    status: 'queued',
    model,
    created_at: now(),
    started_at: null,
    completed_at: null,
    output: '',
    usage: null,
    error: null,
  };
  // The output so far is kept as a string and put into the run only when it is shown or saved:
  // a delta must not copy the whole run object.
  let output = '';
  const snapshot = (): RunObject => ({ ...run, output });
  const update = (patch: Partial<RunObject>) => {
    run = { ...run, ...patch };
    return snapshot();
  };
  store.runs.save(run);
  const queued = run;
  liveRuns.set(id, snapshot);

  const follow = (event: RunEvent) => {
    if (event.type === 'message.delta') output += event.delta;
    else if (event.type === 'run.completed') {
      output = event.output;
      update({ status: 'completed', usage: event.usage, completed_at: now() });
    } else if (event.type === 'run.failed') update({ status: 'failed', error: event.error, completed_at: now() });
  };
  detached.start(
    id,
    (cancellation) =>
      defer(() => {
        store.runs.save(update({ status: 'running', started_at: now() }));
        return agent.run({ messages: request.messages, model }, cancellation);
      }).pipe(recordRunMetrics(context.metrics), toRunEvents(), tap(follow), map(toLoggedEvent)),
    ({ reason, nextSeq }) => {
      liveRuns.delete(id);
      const owed: RunEvent[] = [];
      if (reason === InterruptReason.stopRequested) {
        owed.push({ type: 'run.cancelled', reason });
        update({ status: 'cancelled', completed_at: now() });
      } else if (reason !== undefined || run.status === 'running') {
        const error = { message: `rxgate: ${reason ?? 'the run ended without an outcome'}`, type: 'server_error', code: 'interrupted' };
        owed.push({ type: 'run.failed', error });
        update({ status: 'failed', error, completed_at: now() });
      }
      store.runs.save(snapshot());
      store.enforceRetention();
      return owed.map((event, index) => toLoggedEvent(event, nextSeq + index));
    },
  );
  return queued;
}
