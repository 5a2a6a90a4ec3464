/*
 * A custom tool (free-form text input) is offered to the model as a function of one string
 * parameter, `input`; these turn its call's arguments into the input and back.
 */

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
