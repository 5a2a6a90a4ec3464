import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { BudgetWindow } from '../../money/budgetWindow.js';
import { fromPico, toPico } from '../../money/pico.js';
import type { BudgetHold, BudgetHoldRequest, BudgetLedger, BudgetSettlement, BudgetStanding } from '../../money/BudgetLedger.js';
import { storeCall, type WriteHealth } from './storeCall.js';

/**
 * Budgets in SQLite: the spend a bucket and the holds in flight, each hold taken in one immediate
 * transaction that sums both first (one process owns the file, so nothing comes between).
 */
export class SqliteBudgetLedger implements BudgetLedger {
  readonly #spent: Database.Statement;
  readonly #held: Database.Statement;
  readonly #lapse: Database.Statement;
  readonly #insertHold: Database.Statement;
  readonly #deleteHold: Database.Statement;
  readonly #addSpend: Database.Statement;
  readonly #forget: Database.Statement;
  readonly #hold: (request: BudgetHoldRequest) => BudgetHold;
  readonly #settle: (settlement: BudgetSettlement) => number;

  constructor(
    db: Database.Database,
    private readonly health: WriteHealth,
  ) {
    this.#spent = db.prepare('SELECT COALESCE(SUM(pico), 0) FROM budget_spent WHERE key = ? AND series = ? AND bucket >= ?').pluck();
    this.#held = db.prepare('SELECT COALESCE(SUM(pico), 0) FROM budget_holds WHERE key = ? AND expires_at > ?').pluck();
    this.#lapse = db.prepare('DELETE FROM budget_holds WHERE key = ? AND expires_at <= ?');
    this.#insertHold = db.prepare('INSERT INTO budget_holds (id, key, pico, expires_at) VALUES (?, ?, ?, ?)');
    this.#deleteHold = db.prepare('DELETE FROM budget_holds WHERE id = ?');
    this.#addSpend = db.prepare(
      `INSERT INTO budget_spent (key, series, bucket, pico) VALUES (?, ?, ?, ?)
       ON CONFLICT (key, series, bucket) DO UPDATE SET pico = pico + excluded.pico`,
    );
    this.#forget = db.prepare('DELETE FROM budget_spent WHERE key = ? AND series = ? AND bucket < ?');
    const hold = db.transaction(({ key, window, limitUsd, usd, nowMs, leaseMs }: BudgetHoldRequest): BudgetHold => {
      this.#lapse.run(key, nowMs);
      const spent = this.#spent.get(key, window.series, window.fromMs) as number;
      const held = this.#held.get(key, nowMs) as number;
      if (spent + held + toPico(usd) > toPico(limitUsd)) return { held: false, spentUsd: fromPico(spent), heldUsd: fromPico(held) };
      const id = randomUUID();
      this.#insertHold.run(id, key, toPico(usd), nowMs + leaseMs);
      return { held: true, id };
    });
    this.#hold = (request) => hold.immediate(request);
    const settle = db.transaction(({ key, id, usd, window }: BudgetSettlement) => {
      this.#deleteHold.run(id);
      this.#addSpend.run(key, window.series, window.bucketMs, toPico(usd));
      this.#forget.run(key, window.series, window.forgetBeforeMs);
      return this.#spent.get(key, window.series, window.fromMs) as number;
    });
    this.#settle = (settlement) => settle.immediate(settlement);
  }

  hold(request: BudgetHoldRequest): Promise<BudgetHold> {
    return this.health.write('hold a budget', () => this.#hold(request));
  }

  settle(settlement: BudgetSettlement): Promise<number> {
    return this.health.write('settle a budget hold', () => fromPico(this.#settle(settlement)));
  }

  standing(key: string, window: BudgetWindow, nowMs: number): Promise<BudgetStanding> {
    return storeCall('read a budget', () => ({
      spentUsd: fromPico(this.#spent.get(key, window.series, window.fromMs) as number),
      heldUsd: fromPico(this.#held.get(key, nowMs) as number),
    }));
  }
}
