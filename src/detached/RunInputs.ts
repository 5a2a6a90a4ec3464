import { finalize, Subject, type Observable } from 'rxjs';
import type { AgentEvent, AgentEventOf } from '../agent/agentEvent.js';
import type { ApprovalAnswer, Approvals } from '../agent/approval.js';
import type { RunInput } from '../store/Coordinator.js';

/** What answering an approval came to. */
export type AnswerOutcome =
  | { readonly resolved: AgentEventOf<'approval_resolved'> }
  | { readonly refused: 'already_resolved'; readonly earlier: AgentEventOf<'approval_resolved'> }
  | { readonly refused: 'unknown' }
  | { readonly refused: 'run_ended' };

/**
 * What people send into one run while it goes on: answers to its approvals and steers, as streams
 * merged into the agent's run (`approvals`, `steers$`). It follows the run's events to know which
 * approvals wait, so that an answer to an unknown or settled one is refused before it reaches the run.
 *
 * ```
 * answer():  ----a-----      a = answer to the approval R asked for
 * run:       -R--(D...)      D = approval_resolved, in the same turn as the answer
 * ```
 */
export class RunInputs {
  readonly #answers = new Subject<ApprovalAnswer>();
  readonly #steers = new Subject<string>();
  readonly #pending = new Map<string, AgentEventOf<'approval_required'>>();
  readonly #resolved = new Map<string, AgentEventOf<'approval_resolved'>>();
  /** Set once no model call will take a steer: the run's agent stopped listening to them, or the run is over. */
  #steersEnded = false;
  /** Set once the run is over (it may still be storing its end): no answer reaches its calls any more. */
  #closed = false;

  constructor(private readonly timeoutMs: number) {}

  /** The run's approvals: each waits for its answer here, or for `timeoutMs`. */
  get approvals(): Approvals {
    return { mode: 'wait', answers$: this.#answers.asObservable(), timeoutMs: this.timeoutMs };
  }

  /** The steers, for the run's agent; once it stops listening (its run ended or was cut short), `steer` refuses them. */
  get steers$(): Observable<string> {
    return this.#steers.pipe(finalize(() => (this.#steersEnded = true)));
  }

  /** The calls waiting for an answer, in the order they asked. */
  get pending(): AgentEventOf<'approval_required'>[] {
    return [...this.#pending.values()];
  }

  /** Applied to the run's agent events, as they go by. */
  follow(event: AgentEvent): void {
    if (event.type === 'approval_required') this.#pending.set(event.approvalId, event);
    else if (event.type === 'approval_resolved') {
      this.#pending.delete(event.approvalId);
      this.#resolved.set(event.approvalId, event);
    }
  }

  /** Hands `answer` to the call that waits for it; the run resolves it in the same turn. Refused once the run is over. */
  answer(answer: ApprovalAnswer): AnswerOutcome {
    const earlier = this.#resolved.get(answer.approvalId);
    if (earlier) return { refused: 'already_resolved', earlier };
    // Its calls still wait in `pending`, but nothing listens for their answers any more.
    if (this.#closed) return { refused: 'run_ended' };
    if (!this.#pending.has(answer.approvalId)) return { refused: 'unknown' };
    this.#answers.next(answer);
    const resolved = this.#resolved.get(answer.approvalId);
    return resolved ? { resolved } : { refused: 'unknown' };
  }

  /** Queues a user message for the run's next model call; false once no model call will take it. */
  steer(input: string): boolean {
    if (this.#steersEnded) return false;
    this.#steers.next(input);
    return true;
  }

  /** An input another instance sent through the coordinator; whether the run took it (a steer queued, an approval resolved). */
  deliver(input: RunInput): boolean {
    return input.type === 'steer' ? this.steer(input.input) : 'resolved' in this.answer(input.answer);
  }

  /** Ends both streams: the run is over (it may still be storing its end). */
  close(): void {
    this.#closed = true;
    this.#steersEnded = true;
    this.#answers.complete();
    this.#steers.complete();
  }
}
