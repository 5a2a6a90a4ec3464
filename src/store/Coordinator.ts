import type { Observable } from 'rxjs';
import type { ApprovalAnswer } from '../agent/approval.js';

/** What a person sends into a running run: an answer to one of its approvals, or a steer. */
export type RunInput = { readonly type: 'approval'; readonly answer: ApprovalAnswer } | { readonly type: 'steer'; readonly input: string };

/** What the owner of a run did with a steer sent to it: put it in the run's queue, or refused it (the run has ended without taking it). */
export type SteerReceipt = 'queued' | 'refused';

/** An input sent to a run owned here. */
export interface ReceivedInput {
  readonly id: string;
  readonly input: RunInput;
  /** Tells its sender whether the run took it; a no-op for an input nobody waits on (an approval's answer, which the log shows). */
  acknowledge(taken: boolean): void;
}

/**
 * Who runs what, across the instances that share a store: the concurrency cap, stop requests
 * and people's inputs (approvals, steers) that reach a run's owner wherever it is, and the heartbeat on which a dead owner's runs are
 * found. `LocalCoordinator` for one process (SQLite), `RedisCoordinator` for several.
 */
export interface Coordinator {
  /** Takes a slot of `RXGATE_MAX_CONCURRENT_RUNS` for run `id`, owned here; `CapacityError` when none is free. */
  acquire(id: string): Promise<void>;
  /** Gives back the slot of `id` and forgets any stop request of it. */
  release(id: string): Promise<void>;
  /** Records (durably, where there are several instances) that `id` is to stop, and signals its owner. */
  requestStop(id: string): Promise<void>;
  /** Whether a stop of `id` was requested and its owner has not ended it yet (its state shows as `stopping`). */
  stopRequested(id: string): Promise<boolean>;
  /** The ids of runs owned here that are to stop: signalled, or found on a heartbeat when the signal was missed. */
  readonly stops$: Observable<string>;
  /**
   * The ids of runs owned here that another instance has claimed and ended `failed`, because this
   * one's lease lapsed (its process stalled, or lost Redis, for longer than the lease): they are
   * to stop, and their later saves are dropped. Never in one process.
   */
  readonly takenOver$: Observable<string>;
  /**
   * Hands `input` to the owner of run `id`, wherever it runs: kept (durably, where there are several
   * instances) until the owner takes it, or the run ends.
   */
  sendInput(id: string, input: RunInput): Promise<void>;
  /**
   * Sends steer `input` to run `id` as `sendInput` does, and resolves with what its owner did with
   * it once the owner acknowledges it: undefined if it did not within `withinMs` (it may be slow to
   * take its inputs, or dead), when the steer may or may not reach the run.
   */
  sendSteer(id: string, input: string, withinMs: number): Promise<SteerReceipt | undefined>;
  /** The inputs sent to runs owned here, each once, in the order they were sent. */
  readonly inputs$: Observable<ReceivedInput>;
  /** Emits when runs whose owner died should be looked for (each heartbeat); never in one process. */
  readonly sweeps$: Observable<void>;
  /** How long an owner, or failing it a sweeper, may take to end a run after a stop request. */
  readonly stopWithinMs: number;
  close(): Promise<void>;
}
