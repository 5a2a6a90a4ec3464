import type { ClientTool } from '../agent/agent.js';
import { definedFields } from './modelOptionFields.js';

/*
 * A custom tool (free-form text input) is offered to the model as a function of one string
 * parameter, `input`; these make that function, and turn its call's arguments into the input and back.
 */

/** A custom tool's grammar, under the names both APIs share. */
export interface CustomToolGrammar {
  readonly syntax: 'lark' | 'regex';
  readonly definition: string;
}

/** The one parameter a custom tool's stand-in function takes: the free-form text. */
const CUSTOM_INPUT_SCHEMA = {
  type: 'object',
  properties: { input: { type: 'string', description: 'The tool input, as free-form text.' } },
  required: ['input'],
  additionalProperties: false,
};

/** The function offered to the model in place of a custom tool; its grammar, if any, is in the description. */
export function customToolOffer(name: string, description: string | undefined, grammar: CustomToolGrammar | undefined): ClientTool {
  const rule = grammar ? `The input must match this ${grammar.syntax} grammar:\n${grammar.definition}` : '';
  return {
    type: 'function',
    function: definedFields({
      name,
      description: [description, rule].filter(Boolean).join('\n\n') || undefined,
      parameters: CUSTOM_INPUT_SCHEMA,
    }) as ClientTool['function'],
  };
}

/**
 * The free-form input of a custom tool's call, from the arguments the model gave the function that
 * stands in for it (`{"input": "..."}`); arguments of another shape are passed on as they are.
 */
export function customInput(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { input?: unknown }).input === 'string') {
      return (parsed as { input: string }).input;
    }
  } catch {
    // Not JSON: the model wrote the input itself.
  }
  return args;
}

/** The arguments of the function that stands in for a custom tool, for its call with `input`. */
export function customArguments(input: string): string {
  return JSON.stringify({ input });
}
