import type { ApprovalAnswer } from '../agent/approval.js';
import { awaitLogged } from '../detached/awaitLogged.js';
import type { DetachedRun } from '../detached/DetachedRuns.js';
import { readLog } from '../detached/readLog.js';
import type { AnswerOutcome } from '../detached/RunInputs.js';
import { RequestError } from '../errors/RequestError.js';
import type { RouteHandler } from '../serving/routeHandler.js';
import { localsOf } from '../serving/requestLocals.js';
import type { LoggedEvent } from '../store/EventLog.js';
import { parseApprovalRequest } from './approvalRequest.js';
import { toApprovalResolved, type ApprovalResolvedEvent } from './approvalResolved.js';
import { assertRunOwner } from './assertRunOwner.js';
import { currentRun, isUnfinished, runNotRunning } from './currentRun.js';
import { TERMINAL_RUN_EVENTS } from './runEvent.js';
import type { RunObject } from './runObject.js';
import { idOf } from './runRoutes.js';
import type { RunsContext } from './runsContext.js';

function approvalNotFound(runId: string, approvalId: string): RequestError {
  return new RequestError(404, `run '${runId}' has no approval '${approvalId}'`, 'not_found_error', 'approval_id', 'approval_not_found');
}

function alreadyResolved(approvalId: string, resolved?: ApprovalResolvedEvent): RequestError {
  const how = resolved ? ` (${resolved.choice}, by ${resolved.resolved_by})` : '';
  return new RequestError(
    409,
    `approval '${approvalId}' has already been resolved${how}; each approval is answered once`,
    'invalid_request_error',
    'approval_id',
    'approval_already_resolved',
  );
}

/** The answer of a resolved approval: the fields of its `approval.resolved` event, as a `run.approval` object. */
const resolution = (runId: string, resolved: ApprovalResolvedEvent) => ({
  object: 'run.approval',
  run_id: runId,
  ...Object.fromEntries(Object.entries(resolved).filter(([key]) => key !== 'type')),
});

const parsed = (event: LoggedEvent) => JSON.parse(event.data) as { approval_id?: string };

/** What the log says of approval `approvalId` of run `id`: whether it was asked for, and how it was resolved. */
async function loggedApproval(context: RunsContext, id: string, approvalId: string) {
  let asked = false;
  let resolved: ApprovalResolvedEvent | undefined;
  await readLog(context.store.events, id, (event) => {
    if (event.type === 'approval.required' && parsed(event).approval_id === approvalId) asked = true;
    if (event.type === 'approval.resolved' && parsed(event).approval_id === approvalId)
      resolved = JSON.parse(event.data) as ApprovalResolvedEvent;
  });
  return { asked, resolved };
}

/**
 * Answers an approval of a run on another instance: checked against the log, handed to its owner
 * through the coordinator, and answered once the log shows it resolved (202 if it does not within
 * the coordinator's `stopWithinMs`: the answer stands).
 */
async function answerElsewhere(context: RunsContext, run: RunObject, answer: ApprovalAnswer) {
  const { id } = run;
  if (!isUnfinished(run)) throw runNotRunning(run, 'its approvals can no longer be answered');
  const logged = await loggedApproval(context, id, answer.approvalId);
  if (!logged.asked) throw approvalNotFound(id, answer.approvalId);
  if (logged.resolved) throw alreadyResolved(answer.approvalId, logged.resolved);
  const { coordinator } = context.detached;
  await coordinator.sendInput(id, { type: 'approval', answer });
  const settled = await awaitLogged(
    context.store.events,
    id,
    (event) =>
      TERMINAL_RUN_EVENTS.has(event.type) || (event.type === 'approval.resolved' && parsed(event).approval_id === answer.approvalId),
    coordinator.stopWithinMs,
  );
  if (settled === undefined)
    return { status: 202, body: { object: 'run.approval', run_id: id, approval_id: answer.approvalId, status: 'sent' } };
  if (TERMINAL_RUN_EVENTS.has(settled.type)) throw runNotRunning(await currentRun(context, id), 'its approvals can no longer be answered');
  const resolved = JSON.parse(settled.data) as ApprovalResolvedEvent;
  if (resolved.request_id !== answer.requestId) throw alreadyResolved(answer.approvalId, resolved);
  return { status: 200, body: resolution(id, resolved) };
}

async function fromOutcome(context: RunsContext, run: DetachedRun<RunObject>, approvalId: string, outcome: AnswerOutcome) {
  if ('resolved' in outcome) return { status: 200, body: resolution(run.id, toApprovalResolved(outcome.resolved)) };
  if (outcome.refused === 'run_ended') {
    // It is storing its end: answered as the finished run it is about to be.
    await run.ended;
    throw runNotRunning(await currentRun(context, run.id), 'its approvals can no longer be answered');
  }
  throw outcome.refused === 'unknown'
    ? approvalNotFound(run.id, approvalId)
    : alreadyResolved(approvalId, toApprovalResolved(outcome.earlier));
}

/**
 * `POST /v1/runs/{id}/approval`: `{"approval_id", "choice": "once" | "always" | "deny", "reason"?}`
 * answers a call that waits for a person, on whichever instance runs it. 200 with what was
 * resolved; 404 for an unknown run or approval, 409 for one already resolved or a run that ended,
 * 400 for a bad choice.
 */
export const approvalRoute =
  (context: RunsContext): RouteHandler =>
  async (req, res) => {
    const { approvalId, choice, reason } = parseApprovalRequest(req.body);
    const id = idOf(req.params);
    await assertRunOwner(context, id, localsOf(res).principal);
    const answer: ApprovalAnswer = { approvalId, choice, ...(reason ? { reason } : {}), by: 'api', requestId: localsOf(res).requestId };
    const live = context.detached.get<RunObject>(id, 'run');
    const { status, body } = live?.inputs
      ? await fromOutcome(context, live, approvalId, live.inputs.answer(answer))
      : await answerElsewhere(context, await currentRun(context, id), answer);
    res.status(status).json(body);
  };
