import type { Request, Response } from 'express';
import { exhaustMap, filter, lastValueFrom, takeUntil } from 'rxjs';
import { AnswerLog } from '../detached/AnswerLog.js';
import type { AnswersInFlight } from '../detached/AnswersInFlight.js';
import { followEvents, UNTIL_TERMINAL, type FollowOptions } from '../detached/followEvents.js';
import { serveLoggedEvents, type LoggedEventsContext } from '../detached/serveLoggedEvents.js';
import { clientClose$ } from '../serving/clientClose.js';
import { sendJsonAnswer, type JsonAnswer } from '../serving/jsonAnswer.js';
import { fingerprintOf, idempotencyKeyInUse, idempotencyKeyMismatch } from '../serving/readIdempotencyKey.js';
import { localsOf } from '../serving/requestLocals.js';
import type { Served } from '../serving/served.js';
import type { Logger } from '../logger.js';
import { ChatLogEvent, isChatLogEnd } from './chatLog.js';
import { chatReplayProtocol } from './chatReplayProtocol.js';

export interface ChatOnceContext extends LoggedEventsContext {
  /** The answers under a key being made on this instance. */
  readonly answers: AnswersInFlight;
  /** `RXGATE_IDEMPOTENCY_TTL_MS`. */
  readonly idempotencyTtlMs: number;
}

/**
 * The first request under a key answers as any chat completion does, writing its answer to `log`
 * as it goes; `keep()` resolves once all of it is stored and the key settled (false when the store
 * failed to keep it), for an answer that is sent only then.
 */
export type FirstAnswer = (log: AnswerLog, keep: () => Promise<boolean>) => Promise<Served>;

/** How often a duplicate claims the key again after the first request gave it up, before it is 409. */
const MAX_CLAIMS = 3;

/** How long the log of an answer given up is kept, for the duplicates that were following it to read its end. */
const RELEASED_LOG_MS = 60_000;

/** Which answer a duplicate follows. */
interface FirstRequest {
  readonly owner: string;
  readonly key: string;
  /** The log of its answer (its completion id). */
  readonly id: string;
  /** Whether it was still answering when the duplicate claimed the key. */
  readonly pending: boolean;
}

/**
 * How a duplicate learns that the first request is over: nothing to wait for once it has answered;
 * here, from the registry; on another instance, from its log's end, or a heartbeat that finds its
 * record gone (its instance died).
 */
function endOf(context: ChatOnceContext, { owner, key, id, pending }: FirstRequest): Pick<FollowOptions, 'ended' | 'over$'> {
  if (!pending) return {};
  const here = context.answers.ended(id);
  if (here) return { ended: here };
  return {
    ended: UNTIL_TERMINAL,
    over$: context.detached.coordinator.sweeps$.pipe(
      // A store that cannot say leaves the follower following: the first request's own end still ends it.
      exhaustMap(() => context.store.idempotency.stands(owner, key, id).catch(() => true)),
      filter((standing) => !standing),
    ),
  };
}

/**
 * Answers a chat completion that carries `Idempotency-Key` `key` once per key owner: the first
 * request under it (`answer`) writes its answer to the event log `id` (its completion id) as it
 * goes, and settles the key once the answer is whole and stored. A duplicate runs nothing: a
 * stream replays the log from its first frame and follows it live to its end; otherwise it waits
 * for the first's answer (however long the first runs, and no longer than its own client stays)
 * and answers exactly that, status, headers and body, errors included. Both carry
 * `Idempotency-Replayed: true`.
 *
 * A first request whose client leaves (or that the server ends) was cancelled, not answered: it
 * gives the key up, and a duplicate following it ends with an error frame, one waiting claims the
 * key again and runs (a duplicate on another instance learns of a first whose instance died on a
 * heartbeat, and the next claim takes its key). Another request under the key is 422.
 */
export async function answerChatOnce(
  req: Request,
  res: Response,
  { key, id, stream }: { readonly key: string; readonly id: string; readonly stream: boolean },
  context: ChatOnceContext,
  answer: FirstAnswer,
): Promise<Served | undefined> {
  const { principal, logger } = localsOf(res);
  const owner = principal.id;
  const fingerprint = fingerprintOf(req);
  const { idempotency, events } = context.store;
  for (let claims = 1; ; claims++) {
    // Before the claim: a duplicate that finds it must find its end here.
    const over = context.answers.begin(id);
    const standing = await idempotency
      .claim(owner, key, { fingerprint, answer: id }, context.idempotencyTtlMs, { pending: true })
      .catch((error: unknown) => {
        over();
        throw error;
      });
    if (standing.first) return answerFirst({ owner, key, id, pending: true }, context, answer, logger).finally(over);
    over();
    if (standing.fingerprint !== fingerprint) throw idempotencyKeyMismatch();
    const first: FirstRequest = { owner, key, id: standing.answer, pending: standing.pending };
    const end = endOf(context, first);
    if (stream) {
      res.set('Idempotency-Replayed', 'true');
      return serveLoggedEvents(req, res, { id: first.id, after: -1, isTerminal: isChatLogEnd, ...end }, context, chatReplayProtocol);
    }
    const last = await lastValueFrom(
      followEvents(events, first.id, -1, { isTerminal: isChatLogEnd, ...end, ready: () => Promise.resolve() }).pipe(
        filter(isChatLogEnd),
        takeUntil(clientClose$(res)),
      ),
      { defaultValue: undefined },
    );
    if (last?.type === ChatLogEvent.answer) {
      res.set('Idempotency-Replayed', 'true');
      sendJsonAnswer(res, JSON.parse(last.data) as JsonAnswer);
      return undefined;
    }
    // Its client left while it waited: nobody to answer.
    if (res.closed || res.destroyed) return undefined;
    if (claims === MAX_CLAIMS) throw idempotencyKeyInUse('keeps ending without an answer (its client left, or its server stopped)');
  }
}

/** Runs the first request under the key, and settles the key once its answer is whole and stored, or gives it up. */
async function answerFirst(first: FirstRequest, context: ChatOnceContext, answer: FirstAnswer, logger: Logger): Promise<Served> {
  const { owner, key, id } = first;
  const { idempotency, events } = context.store;
  const report = (error: unknown) => logger.error({ err: error, id }, 'the Idempotency-Key record could not be kept');
  const log = new AnswerLog(events, id, context.idempotencyTtlMs);
  let kept: Promise<boolean> | undefined;
  const keep = () =>
    (kept ??= log.stored().then(async (stored) => {
      // A settle the store refused leaves the record pending here: duplicates still find the answer in the log.
      if (stored) await idempotency.settle(owner, key, id).catch(report);
      return stored;
    }));
  try {
    return await answer(log, keep);
  } finally {
    if (!(log.whole && (await keep()))) {
      // Given up before its followers read why: one that claims again then finds the key free.
      await idempotency.release(owner, key, id).catch(report);
      log.append(ChatLogEvent.released, '');
      await events.flush().catch(() => undefined);
      if (await log.stored()) await events.expire(id, RELEASED_LOG_MS).catch(report);
    }
    if (context.answers.retentionDue()) void context.store.enforceRetention().catch(report);
  }
}
