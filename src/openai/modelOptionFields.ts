import { z } from 'zod';

/** OpenAI's rule for a function (tool) name; a JSON Schema's name follows the same one. */
export const functionName = z
  .string({ error: 'a name must be a string' })
  .regex(/^[a-zA-Z0-9_-]{1,64}$/, 'a name must be 1 to 64 letters, digits, underscores or dashes');

/** A JSON Schema object, forwarded as the client sent it. */
export const jsonSchema = z.record(z.string(), z.unknown(), { error: 'a JSON Schema must be an object' });

const optional = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
const number = (name: string, min: number, max: number) =>
  optional(
    z
      .number({ error: `${name} must be a number` })
      .min(min, `${name} must be at least ${min}`)
      .max(max, `${name} must be at most ${max}`),
  );
const tokens = (name: string) =>
  optional(
    z
      .number({ error: `${name} must be an integer` })
      .int(`${name} must be an integer`)
      .min(1, `${name} must be at least 1`),
  );

/** `metadata`: at most 16 pairs, keys of at most 64 characters and values of at most 512, as OpenAI has it. */
export const metadata = optional(
  z
    .record(
      z.string().max(64, 'a metadata key must be at most 64 characters'),
      z.string().max(512, 'a metadata value must be at most 512 characters'),
      {
        error: 'metadata must be an object of strings',
      },
    )
    .refine((pairs) => Object.keys(pairs).length <= 16, 'metadata may have at most 16 pairs'),
);

export const reasoningEffort = optional(
  z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh'], {
    error: 'reasoning_effort must be none, minimal, low, medium, high or xhigh',
  }),
);

export const verbosity = optional(z.enum(['low', 'medium', 'high'], { error: 'verbosity must be low, medium or high' }));

/**
 * The sampling and output fields of OpenAI's Chat Completions request that rxgate forwards to the
 * model, with OpenAI's bounds; `null` means the default, as in OpenAI's API.
 */
export const modelOptionFields = {
  temperature: number('temperature', 0, 2),
  top_p: number('top_p', 0, 1),
  max_tokens: tokens('max_tokens'),
  max_completion_tokens: tokens('max_completion_tokens'),
  stop: optional(
    z.union([z.string(), z.array(z.string()).max(4, 'stop may have at most 4 sequences')], {
      error: 'stop must be a string or an array of at most 4 strings',
    }),
  ),
  seed: optional(z.number({ error: 'seed must be an integer' }).int('seed must be an integer')),
  presence_penalty: number('presence_penalty', -2, 2),
  frequency_penalty: number('frequency_penalty', -2, 2),
  logit_bias: optional(
    z.record(z.string().regex(/^\d+$/, 'a logit_bias key must be a token id'), z.number().min(-100).max(100), {
      error: 'logit_bias must map token ids to numbers from -100 to 100',
    }),
  ),
  user: z.string({ error: 'user must be a string' }).max(256).optional(),
  reasoning_effort: reasoningEffort,
  verbosity,
  metadata,
};

/** The fields of `source` that are set: `null` and `undefined` (the defaults) are left out. */
export function definedFields<T extends object>(source: T): Partial<{ [K in keyof T]: NonNullable<T[K]> }> {
  return Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== null)) as Partial<{
    [K in keyof T]: NonNullable<T[K]>;
  }>;
}
