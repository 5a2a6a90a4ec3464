import type { ConversationStore } from './ConversationStore.js';
import type { EventLog } from './EventLog.js';
import type { JobStore } from './JobStore.js';
import type { IdempotencyStore } from './IdempotencyStore.js';
import type { ResponseStore } from './ResponseStore.js';
import type { RunStore } from './RunStore.js';
import type { UsageLedger } from './UsageLedger.js';
import type { BudgetLedger } from '../money/BudgetLedger.js';

/**
 * Where the Responses, Runs and Conversations APIs keep stored responses, runs, their event logs and conversations: SQLite in
 * one process by default (`SqliteStore`). Every call may fail (`StoreError`); no caller lets such
 * a failure escape to the process.
 */
export interface Store {
  readonly responses: ResponseStore;
  readonly runs: RunStore;
  readonly events: EventLog;
  /** Scheduled jobs (the jobs API) and their fires. */
  readonly jobs: JobStore;
  /** `Idempotency-Key` records, per owner. */
  readonly idempotency: IdempotencyStore;
  /** Conversations and their items (the Conversations API). */
  readonly conversations: ConversationStore;
  /** One row for every model call that spent something, for `GET /api/usage`. */
  readonly usage: UsageLedger;
  /** Each key's spend against its budget, and the holds of its calls in flight. */
  readonly budgets: BudgetLedger;
  /** Evicts what the retention policy no longer keeps; called after something settles. Returns how many items went. */
  enforceRetention(): Promise<number>;
  /** Undefined when writes go through, else why not (for the readiness check). */
  checkWritable(): Promise<string | undefined>;
  close(): Promise<void>;
}
