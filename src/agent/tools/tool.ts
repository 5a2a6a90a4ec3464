import type { z } from 'zod';

/**
 * Something the model may call. `parameters` is the zod schema of the arguments: it becomes the
 * JSON schema the model sees, and it validates what the model sends before `run` is called.
 * `run` returns the text the model reads; a thrown error becomes a tool error the model reads.
 */
export interface Tool<Schema extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly parameters: Schema;
  run(args: z.output<Schema>, signal: AbortSignal): Promise<string>;
}

/** A tool with its argument type inferred from its schema. */
export function defineTool<Schema extends z.ZodType>(tool: Tool<Schema>): Tool {
  return tool as unknown as Tool;
}
