import type { Budget } from '../budget.js';

/**
 * Where a key's spend counts at one instant: the series and bucket a call's cost is added to, the
 * first bucket of the series that still counts, and when the spend counted now stops counting.
 */
export interface BudgetWindow {
  /** `calendar` (one bucket a period, at its start) or `rolling:<bucket ms>`. */
  readonly series: string;
  /** Unix ms: the bucket a call settled now adds to. */
  readonly bucketMs: number;
  /** Unix ms: buckets from this one on count. */
  readonly fromMs: number;
  /** Unix ms when the oldest spend counted now stops counting (the next period's start). */
  readonly resetsAtMs: number;
  /** Unix ms before which the series' buckets can be forgotten. */
  readonly forgetBeforeMs: number;
}

/**
 * How long a calendar series keeps its buckets: a month's, so that a budget changed from a day to
 * a month (or a week) counts the days of the month already recorded.
 */
const CALENDAR_MEMORY_MS = 32 * 24 * 3600_000;

/** A rolling window forgets its spend in steps of a sixtieth of its length, and of at least a minute. */
export const rollingBucketMs = (rollingMs: number): number => Math.max(60_000, Math.ceil(rollingMs / 60));

/** One formatter a zone, made once: making one costs far more than formatting with it, and a window formats five times. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The wall clock of `ms` in `zone`. */
function wallClock(ms: number, zone: string): { year: number; month: number; day: number; weekday: number; offsetMs: number } {
  const parts = formatterOf(zone).formatToParts(ms);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)!.value;
  const number = (type: Intl.DateTimeFormatPartTypes) => Number(part(type));
  const asUtc = Date.UTC(number('year'), number('month') - 1, number('day'), number('hour'), number('minute'), number('second'));
  return {
    year: number('year'),
    month: number('month'),
    day: number('day'),
    weekday: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(part('weekday')),
    offsetMs: asUtc - (ms - (ms % 1000)),
  };
}

/** The instant of midnight on a date in `zone` (a date whose midnight a DST change skips: its first instant). */
function midnight(year: number, month: number, day: number, zone: string): number {
  const wall = Date.UTC(year, month - 1, day);
  // Two corrections find the offset in force at that midnight, across a DST change too.
  let guess = wall - wallClock(wall, zone).offsetMs;
  guess = wall - wallClock(guess, zone).offsetMs;
  return guess;
}

/** The calendar period of `budget` that `nowMs` lies in: its start and the next one's. */
function calendarPeriod(period: 'day' | 'week' | 'month', zone: string, nowMs: number): { startMs: number; endMs: number } {
  const { year, month, day, weekday } = wallClock(nowMs, zone);
  // Date.UTC carries days past a month's end and months past December, so the next start is one more unit.
  const start = (y: number, m: number, d: number) => {
    const date = new Date(Date.UTC(y, m - 1, d));
    return midnight(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), zone);
  };
  switch (period) {
    case 'day':
      return { startMs: start(year, month, day), endMs: start(year, month, day + 1) };
    case 'week':
      return { startMs: start(year, month, day - weekday), endMs: start(year, month, day - weekday + 7) };
    case 'month':
      return { startMs: start(year, month, 1), endMs: start(year, month + 1, 1) };
  }
}

/**
 * The window of `budget` at `nowMs`. A calendar period is one bucket at its start, so a period
 * ends all its spend at once at the next midnight in its zone (a day of 23 or 25 hours across a
 * DST change); every calendar period shares one series, so a changed period counts what was
 * recorded since its start. A rolling window sums the buckets (`rollingBucketMs`) it overlaps: it counts spend
 * up to one bucket longer than its length, never shorter.
 */
export function budgetWindow(budget: Budget, nowMs: number): BudgetWindow {
  const { period, timeZone = 'UTC' } = budget;
  if (typeof period === 'string') {
    const { startMs, endMs } = calendarPeriod(period, timeZone, nowMs);
    return { series: 'calendar', bucketMs: startMs, fromMs: startMs, resetsAtMs: endMs, forgetBeforeMs: startMs - CALENDAR_MEMORY_MS };
  }
  const size = rollingBucketMs(period.rollingMs);
  const bucketMs = nowMs - (nowMs % size);
  const from = nowMs - period.rollingMs;
  const fromMs = from - (((from % size) + size) % size);
  return { series: `rolling:${size}`, bucketMs, fromMs, resetsAtMs: fromMs + size + period.rollingMs, forgetBeforeMs: fromMs };
}
