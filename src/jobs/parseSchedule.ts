import { Cron } from 'croner';
import { RequestError } from '../errors/RequestError.js';

/**
 * A job's schedule: a fixed duration between fires (`30m`, `every 2h`), a 5-field cron
 * expression read in the job's zone, or one ISO time (in the job's zone unless it has an offset).
 */
export type Schedule = { readonly kind: 'every'; readonly ms: number } | { readonly kind: 'cron' | 'once'; readonly cron: Cron };

const DURATION = /^(?:every\s+)?(\d{1,6})\s*(s|m|h|d)$/i;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T/;
// A year: past it a duration is surely a typo, and one timer could not wait for it.
const LONGEST_MS = 366 * UNIT_MS.d;

const invalid = (param: 'schedule' | 'timezone', message: string) =>
  new RequestError(400, `invalid '${param}': ${message}`, 'invalid_request_error', param, `invalid_${param}`);

/** Throws a 400 naming `timezone` unless `timezone` is an IANA zone this runtime knows. */
export function assertTimezone(timezone: string): void {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    throw invalid('timezone', `'${timezone}' is not an IANA time zone (such as 'UTC' or 'Europe/Berlin')`);
  }
}

/** Reads `text` in `timezone`; a 400 naming `schedule` (or `timezone`) says what is wrong. */
export function parseSchedule(text: string, timezone: string): Schedule {
  assertTimezone(timezone);
  const trimmed = text.trim();
  const duration = DURATION.exec(trimmed);
  if (duration) {
    const ms = Number(duration[1]) * UNIT_MS[duration[2]!.toLowerCase() as keyof typeof UNIT_MS];
    if (ms === 0 || ms > LONGEST_MS) throw invalid('schedule', `a duration must be from 1s to 366d, not '${text}'`);
    return { kind: 'every', ms };
  }
  const isoDate = ISO_TIME.exec(trimmed);
  if (isoDate) assertDayExists(text, Number(isoDate[1]), Number(isoDate[2]), Number(isoDate[3]));
  const kind = isoDate ? 'once' : 'cron';
  let cron: Cron;
  try {
    cron = new Cron(trimmed, { timezone, ...(kind === 'cron' ? { mode: '5-part' } : {}) });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw invalid('schedule', `'${text}' is neither a duration ('30m', 'every 2h'), a 5-field cron expression nor an ISO time (${why})`);
  }
  // `0 9 30 2 *` parses, and no day ever matches it.
  if (kind === 'cron' && cron.nextRun() === null) throw invalid('schedule', `'${text}' never fires: no day matches it`);
  return { kind, cron };
}

/** Croner reads February 30 as March 2: a day the month does not have is refused, not moved. */
function assertDayExists(text: string, year: number, month: number, day: number): void {
  if (month < 1 || month > 12) return; // croner refuses it, naming the ISO time
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) {
    throw invalid(
      'schedule',
      `'${text}' names a day that does not exist: ${year}-${String(month).padStart(2, '0')} has ${daysInMonth} days`,
    );
  }
}
