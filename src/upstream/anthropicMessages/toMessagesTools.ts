import { isRecord } from '../../wire/isRecord.js';

type Json = Record<string, unknown>;

/** A parameterless tool's schema: Anthropic requires an `input_schema` of type object. */
const NO_PARAMETERS = { type: 'object', properties: {} };

/** The `tool_choice` of a chat body as Anthropic's: `auto`, `required` (`any`), `none`, or one function (`tool`). */
function toToolChoice(choice: unknown): Json | undefined {
  if (choice === 'auto' || choice === 'none') return { type: choice };
  if (choice === 'required') return { type: 'any' };
  if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === 'string')
    return { type: 'tool', name: choice.function.name };
  return undefined;
}

/**
 * A chat body's function tools as Messages `tools` (`parameters` is the `input_schema`), with
 * its `tool_choice`, and `parallel_tool_calls: false` as `disable_parallel_tool_use` (which
 * `none` cannot carry). No tools, no fields.
 */
export function toMessagesTools(body: Readonly<Json>): Json {
  const tools = Array.isArray(body.tools)
    ? body.tools.flatMap((tool: unknown) => {
        if (!isRecord(tool) || !isRecord(tool.function)) return [];
        const { name, description, parameters } = tool.function;
        return [
          {
            name,
            ...(typeof description === 'string' ? { description } : {}),
            input_schema: isRecord(parameters) ? parameters : NO_PARAMETERS,
          },
        ];
      })
    : [];
  if (tools.length === 0) return {};
  let choice = toToolChoice(body.tool_choice);
  if (body.parallel_tool_calls === false && choice?.type !== 'none')
    choice = { ...(choice ?? { type: 'auto' }), disable_parallel_tool_use: true };
  return { tools, ...(choice ? { tool_choice: choice } : {}) };
}
