import { z } from 'zod';
import { LONGEST_TIMER, upstreamUrl } from '../config.js';
import { priceSchema } from '../money/price.js';

const positiveInt = z.number().int().positive();
const timerMs = positiveInt.max(...LONGEST_TIMER);
const name = z.string().min(1);

const timeouts = z.strictObject({
  connectMs: timerMs.optional(),
  firstByteMs: timerMs.optional(),
  firstContentMs: timerMs.optional(),
  idleMs: timerMs.optional(),
});

const upstream = z.strictObject({
  id: name,
  kind: z.enum(['openai', 'anthropic']).default('openai'),
  url: upstreamUrl,
  /** `env:NAME`: a key is never written in the file. */
  apiKey: z
    .string()
    .regex(/^env:[A-Za-z_][A-Za-z0-9_]*$/, 'must be "env:NAME", the variable that holds the key; a key is never written in the file')
    .optional(),
  weight: z.number().positive().default(1),
  maxInFlight: positiveInt.default(1000),
  timeouts: timeouts.default({}),
});

const route = z.strictObject({
  name,
  targets: z
    .array(z.strictObject({ upstream: name, model: name, maxOutputTokens: positiveInt.optional(), price: priceSchema.optional() }))
    .min(1),
  balance: z.enum(['ordered', 'weighted', 'least-in-flight']).default('ordered'),
  fallbacks: z.array(name).default([]),
  contextWindowFallbacks: z.array(name).default([]),
});

/** A routes file (`RXGATE_ROUTES_FILE`), strictly: an unknown key anywhere is an error. */
export const routesFileSchema = z.strictObject({
  upstreams: z.array(upstream).min(1),
  models: z.array(route).min(1),
  retry: z
    .strictObject({
      attempts: positiveInt.default(2),
      baseMs: positiveInt.default(250),
      capMs: timerMs.default(8000),
      maxRetryAfterMs: z
        .number()
        .int()
        .min(0)
        .max(...LONGEST_TIMER)
        .default(30_000),
    })
    .default({ attempts: 2, baseMs: 250, capMs: 8000, maxRetryAfterMs: 30_000 }),
  budget: z
    .strictObject({ deadlineMs: positiveInt.default(90_000), maxAttempts: positiveInt.default(6) })
    .default({ deadlineMs: 90_000, maxAttempts: 6 }),
  breaker: z
    .strictObject({ failures: positiveInt.default(3), cooldownMs: positiveInt.default(30_000) })
    .default({ failures: 3, cooldownMs: 30_000 }),
});

export type RoutesFile = z.output<typeof routesFileSchema>;
