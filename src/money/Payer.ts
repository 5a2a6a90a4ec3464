import type { Budget } from '../budget.js';

/** Who a run's model calls are spent for: the ledger's row names it, and a budget is held against its key. */
export interface Payer {
  /** The key id (principal id); absent for a keyless gateway's one owner. */
  readonly key?: string;
  /** What the calls were made for: the run, response, chat completion or message id the client sees. */
  readonly reference?: string;
  /** The key's budget when the request came: each of the calls holds its worst case against it. */
  readonly budget?: Budget;
}
