import type { Tool, ToolProgress } from './tool.js';

/** What a tool call came to: the text the model reads, or the error it reads instead. */
export type ToolOutcome = { readonly result: string } | { readonly error: string };

function parseArguments(raw: string): { ok: true; value: unknown } | { ok: false } {
  // Models send "" for a call without arguments.
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    return { ok: false };
  }
}

/**
 * Validates the model's raw arguments against the tool's schema and runs it. Nothing the model
 * sends crashes the run: an unknown tool, arguments that are not JSON, arguments the schema
 * rejects and a tool that throws all become an `error` outcome the model reads.
 */
export async function invokeTool(
  tool: Tool | undefined,
  name: string,
  rawArguments: string,
  signal: AbortSignal,
  onProgress: (update: ToolProgress) => void = () => {},
  traceHeaders?: Readonly<Record<string, string>>,
): Promise<ToolOutcome> {
  if (!tool) return { error: `there is no tool named "${name}"` };
  const parsed = parseArguments(rawArguments);
  if (!parsed.ok) return { error: `the arguments of ${name} are not valid JSON: ${rawArguments.slice(0, 200)}` };
  const validated = tool.parameters.safeParse(parsed.value);
  if (!validated.success) {
    const issues = validated.error.issues.map((issue) => `${issue.path.join('.') || '(arguments)'}: ${issue.message}`);
    return { error: `invalid arguments for ${name}: ${issues.join('; ')}` };
  }
  try {
    return { result: await tool.run(validated.data, signal, { progress: onProgress, traceHeaders }) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
