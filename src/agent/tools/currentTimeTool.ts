import { z } from 'zod';
import { ToolInputError } from './ToolInputError.js';
import { defineTool } from './tool.js';

function formatIn(timeZone: string, now: Date): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone, dateStyle: 'full', timeStyle: 'long' }).format(now);
  } catch {
    throw new ToolInputError(`"${timeZone}" is not an IANA time zone; use a name like "Europe/Paris" or "UTC"`);
  }
}

/** The current date and time, in UTC and optionally in a named time zone. */
export const currentTimeTool = defineTool({
  name: 'current_time',
  description: 'Returns the current date and time in UTC (ISO 8601), and in the given IANA time zone if one is named.',
  parameters: z.object({
    timezone: z.string().min(1).optional().describe('An IANA time zone name, for example "Europe/Paris"'),
  }),
  run: async ({ timezone }) => {
    const now = new Date();
    const utc = `UTC: ${now.toISOString()}`;
    return timezone ? `${utc}\n${timezone}: ${formatIn(timezone, now)}` : utc;
  },
});
