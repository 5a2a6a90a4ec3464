import { defer, from, Observable, of, switchMap, type SchedulerLike } from 'rxjs';
import { BudgetExceededError } from '../errors/BudgetExceededError.js';
import type { Budget } from '../budget.js';
import { budgetWindow } from '../money/budgetWindow.js';
import type { Price } from '../money/price.js';
import { worstCaseUsd } from '../money/worstCaseUsd.js';
import { loadedTokenCounter, tokenCounter } from '../wire/tokenCount.js';
import type { BudgetGuard } from './BudgetGuard.js';

/** One attempt to hold for: the key and its budget, the target's price, its body and output limit. */
export interface BudgetedAttempt {
  readonly key: string;
  readonly budget: Budget;
  readonly price: Price;
  readonly body: Readonly<Record<string, unknown>>;
  /** The target's `maxOutputTokens`, if it has one. */
  readonly maxOutputTokens?: number;
}

/** Settles an attempt's hold to what it cost; only the first call counts. */
export type SettleHold = (usd: number) => void;

/** A hold taken, with the one settlement it gets. */
interface Taken {
  readonly settle: SettleHold;
}

/**
 * Holds the attempt's worst case against its key's budget before it opens, then runs `attempt`,
 * which settles the hold once with the attempt's cost. A hold that does not fit fails the attempt
 * with `BudgetExceededError` before anything is sent. A subscriber that leaves while the hold is
 * being taken opens nothing, and the hold, once it comes, settles at zero.
 *
 * ```
 * hold:     --h                  h = held (the ledger's answer, whenever it comes)
 * attempt:    --t--t--|          opened only then; settled once as it ends
 * refused:  --#                  BudgetExceededError: no request went out
 * ```
 */
export function holdBudget<T>(
  guard: BudgetGuard,
  attempt: BudgetedAttempt,
  scheduler: SchedulerLike,
  open$: (settle: SettleHold) => Observable<T>,
): Observable<T> {
  return defer(() => {
    const loaded = loadedTokenCounter();
    return loaded ? of(loaded) : from(tokenCounter());
  }).pipe(
    switchMap((count) => {
      const { price, body, maxOutputTokens } = attempt;
      const heldUsd = worstCaseUsd(price, body, count, Math.min(guard.reserveOutputTokens, maxOutputTokens ?? Infinity));
      return take(guard, attempt, heldUsd, scheduler);
    }),
    switchMap(({ settle }) => defer(() => open$(settle))),
  );
}

/** The hold of `heldUsd`, as one value, or `BudgetExceededError`; one that comes after its subscriber left settles at zero. */
function take(guard: BudgetGuard, { key, budget }: BudgetedAttempt, heldUsd: number, scheduler: SchedulerLike): Observable<Taken> {
  return new Observable<Taken>((subscriber) => {
    const nowMs = scheduler.now();
    const window = budgetWindow(budget, nowMs);
    let left = false;
    from(guard.holds.hold({ key, window, limitUsd: budget.usd, usd: heldUsd, nowMs, leaseMs: guard.leaseMs })).subscribe({
      next: (answer) => {
        if (!answer.held) {
          if (!left) subscriber.error(new BudgetExceededError(key, budget, answer.spentUsd, answer.heldUsd, window.resetsAtMs, nowMs));
          return;
        }
        let settled = false;
        const settle: SettleHold = (usd) => {
          if (settled) return;
          settled = true;
          // Added to the window of the instant it ends: a call across midnight counts in the new day.
          const at = budgetWindow(budget, scheduler.now());
          // Told apart from the attempt, which has ended: nothing waits for the settlement.
          // eslint-disable-next-line rxjs-x/no-nested-subscribe
          from(guard.holds.settle({ key, id: answer.id, usd, window: at })).subscribe({
            next: (spentUsd) => guard.onSettled?.({ key, budget, window: at, heldUsd, usd, spentUsd }),
            error: (error: unknown) => guard.onSettleFailed?.(error, key),
          });
        };
        if (left) settle(0);
        else {
          subscriber.next({ settle });
          subscriber.complete();
        }
      },
      error: (error: unknown) => left || subscriber.error(error),
    });
    return () => {
      left = true;
    };
  });
}
