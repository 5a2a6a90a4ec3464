/** The parts of an MCP `CallToolResult` rxgate reads; anything else in it is ignored. */
export interface McpToolResult {
  readonly content?: readonly McpContentBlock[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
}

type McpContentBlock = { readonly type: string } & Readonly<Record<string, unknown>>;

function size(base64: unknown): string {
  if (typeof base64 !== 'string') return 'unknown size';
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  const bytes = Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
  return bytes < 1000 ? `${bytes} B` : `${Math.round(bytes / 1000)} kB`;
}

function renderResource(resource: Readonly<Record<string, unknown>>): string {
  if (typeof resource.text === 'string') return resource.text;
  const mimeType = typeof resource.mimeType === 'string' ? `, ${resource.mimeType}` : '';
  return `[resource: ${String(resource.uri)}${mimeType}, ${size(resource.blob)}]`;
}

function renderBlock(block: McpContentBlock): string {
  switch (block.type) {
    case 'text':
      return String(block.text ?? '');
    case 'image':
    case 'audio':
      return `[${block.type}: ${String(block.mimeType ?? 'unknown type')}, ${size(block.data)}]`;
    case 'resource_link': {
      const name = typeof block.name === 'string' && block.name !== '' ? `${block.name} ` : '';
      return `[resource link: ${name}<${String(block.uri)}>${typeof block.mimeType === 'string' ? ` (${block.mimeType})` : ''}]`;
    }
    case 'resource':
      return renderResource((block.resource ?? {}) as Readonly<Record<string, unknown>>);
    default:
      return `[${block.type} content]`;
  }
}

/**
 * The text a model reads for an MCP tool result: text as it is, images and audio as a short
 * placeholder (`[image: image/png, 12 kB]`, the model cannot see them through a tool message),
 * resource links as their name and URI, embedded text resources as their text. Structured
 * content is rendered as JSON only when there is no other content: servers send its JSON as
 * text too, and the model should not read it twice.
 */
export function renderToolResult(result: McpToolResult): string {
  const blocks = result.content ?? [];
  if (blocks.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return blocks.map(renderBlock).join('\n');
}
