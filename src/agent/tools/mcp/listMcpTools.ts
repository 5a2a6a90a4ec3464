import { specTypeSchemas, type Client, type Tool as McpToolDescriptor } from '@modelcontextprotocol/client';
import { z } from 'zod';

// The SDK's own listTools() rejects the whole list when one tool breaks the spec; this reads the
// list loosely and checks each tool apart, so one bad tool costs only itself.
const looseToolsPage = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
const MAX_PAGES = 64;
/** rxgate calls tools and waits for their result; it does not run MCP tasks, so every call of such a tool would fail. */
const TASKS_REQUIRED = 'it can only be called as an MCP task (execution.taskSupport: "required"), which rxgate does not run';

export interface McpToolListing {
  readonly tools: McpToolDescriptor[];
  /** Tools left out because they break the MCP spec or need MCP tasks, and why. */
  readonly invalid: { readonly name: string; readonly problem: string }[];
}

/** Every page of a server's `tools/list`, each tool checked against the MCP spec on its own, the tools only tasks can call left out. */
export async function listMcpTools(
  client: Pick<Client, 'request' | 'getServerCapabilities'>,
  options: { timeout: number; signal: AbortSignal },
): Promise<McpToolListing> {
  const listing: McpToolListing = { tools: [], invalid: [] };
  if (!client.getServerCapabilities()?.tools) return listing;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, looseToolsPage, options);
    for (const tool of result.tools) {
      const checked = specTypeSchemas.Tool['~standard'].validate(tool);
      if (checked.issues === undefined) {
        if (checked.value.execution?.taskSupport === 'required') {
          listing.invalid.push({ name: checked.value.name, problem: TASKS_REQUIRED });
        } else listing.tools.push(checked.value);
      } else {
        const name = typeof (tool as { name?: unknown })?.name === 'string' ? (tool as { name: string }).name : '(unnamed)';
        const problem = checked.issues
          .map(
            (issue) =>
              `${(issue.path ?? []).map((key) => String(typeof key === 'object' ? key.key : key)).join('.') || '(tool)'}: ${issue.message}`,
          )
          .join('; ');
        listing.invalid.push({ name, problem: `it breaks the MCP spec (${problem})` });
      }
    }
    cursor = result.nextCursor;
    if (cursor === undefined) return listing;
  }
  throw new Error(`the tool list has more than ${MAX_PAGES} pages`);
}
