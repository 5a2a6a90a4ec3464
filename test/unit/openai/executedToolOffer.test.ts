import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { argumentShapes, EXECUTED_TOOL_TYPES, executedToolOffer } from '../../../src/openai/executedToolCalls.js';

interface Parameters {
  readonly type: string;
  readonly properties: Record<string, Record<string, unknown>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: unknown;
}

/** Each variant's fields (one for an object), with whether it may be left out. */
const variants = (shape: (typeof argumentShapes)[keyof typeof argumentShapes]): z.ZodObject[] =>
  'options' in shape ? (shape.options as unknown as z.ZodObject[]) : [shape as z.ZodObject];
const fieldsOf = (object: z.ZodObject) => Object.keys(object.shape);
const requiredOf = (object: z.ZodObject) =>
  fieldsOf(object).filter((name) => !(object.shape[name] as z.ZodType).safeParse(undefined).success);

describe('the functions offered for client-executed tools', () => {
  it.each(EXECUTED_TOOL_TYPES)('%s: its parameters name the fields its arguments parse, and require those they need', (type) => {
    const offer = executedToolOffer(type).function;
    const parameters = offer.parameters as unknown as Parameters;
    const objects = variants(argumentShapes[type]);

    expect(offer.name).toBe(type);
    expect(offer.description).toBe(argumentShapes[type].description);
    expect(parameters).toMatchObject({ type: 'object', additionalProperties: false });
    expect(parameters).not.toHaveProperty('$schema');
    expect(Object.keys(parameters.properties).sort()).toEqual([...new Set(objects.flatMap(fieldsOf))].sort());
    // A field is required when every variant requires it.
    expect([...(parameters.required ?? [])].sort()).toEqual(
      requiredOf(objects[0]!)
        .filter((name) => objects.every((object) => requiredOf(object).includes(name)))
        .sort(),
    );
  });

  it('offers a nullish field as a plain optional property, never "or null"', () => {
    const { properties } = executedToolOffer('local_shell').function.parameters as unknown as Parameters;

    expect(properties.timeout_ms).toMatchObject({ type: 'integer' });
    expect(JSON.stringify(properties)).not.toContain('null');
  });
});
