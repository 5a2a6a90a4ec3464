import { z } from 'zod';

/** A calendar period (starting at midnight in the budget's zone, weeks on Monday) or a rolling window. */
export type BudgetPeriod = 'day' | 'week' | 'month' | { readonly rollingMs: number };

/** A key's spending limit, as its entry in the keys file gives it. */
export interface Budget {
  /** USD the key may spend in a period. */
  readonly usd: number;
  readonly period: BudgetPeriod;
  /** The IANA zone whose midnights start a calendar period. Default: UTC. */
  readonly timeZone?: string;
  /** USD past which a warning is logged, once a period. */
  readonly softUsd?: number;
}

const isTimeZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** A keys-file `budget`, checked strictly: a soft limit under the hard one, a zone the runtime knows. */
export const budgetSchema = z
  .strictObject({
    usd: z.number().positive().finite(),
    period: z.union([
      z.enum(['day', 'week', 'month']),
      z.strictObject({ rollingMs: z.number().int().min(60_000, 'must be at least 60000 (one minute)') }),
    ]),
    timeZone: z.string().refine(isTimeZone, 'must be an IANA time zone, such as Europe/Berlin').optional(),
    softUsd: z.number().positive().finite().optional(),
  })
  .refine(({ usd, softUsd }) => softUsd === undefined || softUsd < usd, { path: ['softUsd'], message: 'must be less than usd' });

/** How a period reads in a message: "per day (Europe/Berlin)", "per rolling 3600 s". */
export function describePeriod({ period, timeZone = 'UTC' }: Budget): string {
  return typeof period === 'string' ? `per ${period} (${timeZone})` : `per rolling ${Math.round(period.rollingMs / 1000)} s`;
}
