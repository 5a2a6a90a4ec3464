import { z } from 'zod';
import { assertObjectBody, invalidRequest } from '../errors/invalidRequest.js';
import { RequestError } from '../errors/RequestError.js';
import { turnFields } from '../openai/parseInput.js';
import { parseRunRequest } from '../runs/runRequest.js';
import type { JobRecord } from '../store/JobStore.js';
import { nextSlot } from './nextSlot.js';
import { parseSchedule } from './parseSchedule.js';

const jobFields = {
  name: z.string().min(1).max(256),
  schedule: z.string().min(1).max(256),
  timezone: z.string().min(1).max(128).optional(),
  enabled: z.boolean().optional(),
  ...turnFields,
};
const createSchema = z.object(jobFields);
const updateSchema = z.object(jobFields).partial();

/** What a person sets of a job. */
export type JobSettings = Pick<JobRecord, 'name' | 'schedule' | 'timezone' | 'enabled' | 'input' | 'instructions' | 'model'>;

/**
 * Checks a `POST /api/jobs` body, or a `PATCH /api/jobs/{id}` body over the job `current`: the
 * schedule and zone (400 naming `schedule` or `timezone`), and the run its fires start, as
 * `POST /v1/runs` would. A one-time schedule must be in the future when it or its zone is set.
 */
export function parseJobRequest(body: unknown, now: number, current?: JobSettings): JobSettings {
  assertObjectBody(body);
  const parsed = (current ? updateSchema : createSchema).safeParse(body);
  if (!parsed.success) throw invalidRequest(parsed.error, body);
  const settings = { timezone: 'UTC', enabled: true, ...current, ...parsed.data } as JobSettings;
  const schedule = parseSchedule(settings.schedule, settings.timezone);
  // A new zone moves a one-time schedule without an offset as much as a new time does.
  const set = settings.schedule !== current?.schedule || settings.timezone !== current?.timezone;
  if (schedule.kind === 'once' && set && nextSlot(schedule, now, now) === undefined)
    throw new RequestError(
      400,
      `invalid 'schedule': '${settings.schedule}' has passed`,
      'invalid_request_error',
      'schedule',
      'invalid_schedule',
    );
  parseRunRequest({ input: settings.input, instructions: settings.instructions, model: settings.model });
  return settings;
}
