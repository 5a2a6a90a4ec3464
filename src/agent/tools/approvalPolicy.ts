import type { Tool } from './tool.js';

/** A glob (`*` any run of characters, `?` one) as an anchored regular expression. */
function globToRegExp(glob: string): RegExp {
  const source = [...glob].map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[\\^$.|+()[\]{}]/g, '\\$&'))).join('');
  return new RegExp(`^${source}$`);
}

/**
 * Which tools' calls wait for a person: those marked `requiresApproval` (an MCP server's
 * `requireApproval`) and those whose name, as the model sees it, matches one of `patterns`
 * (`RXGATE_REQUIRE_APPROVAL`: `fs__write_*`, `shell__*`, `note`).
 *
 * @example
 * const needsApproval = approvalPolicy(['fs__write_*']);
 * needsApproval(writeFileTool); // true for fs__write_file
 */
export function approvalPolicy(patterns: readonly string[] = []): (tool: Tool) => boolean {
  const globs = patterns.map(globToRegExp);
  return (tool) => tool.requiresApproval === true || globs.some((glob) => glob.test(tool.name));
}
