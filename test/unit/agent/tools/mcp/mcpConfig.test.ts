import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../../src/errors/ConfigError.js';
import { loadMcpConfig } from '../../../../../src/agent/tools/mcp/loadMcpConfig.js';
import { createScratch, writeMcpConfig } from '../../../../support/mcpFixture.js';
import { writeFileSync } from 'node:fs';

const scratch = createScratch();
afterAll(() => scratch.cleanup());

let files = 0;
function load(servers: Record<string, unknown>, env: Record<string, string> = {}) {
  const path = writeMcpConfig(scratch.path(`config-${files++}.json`), servers);
  return { path, load: () => loadMcpConfig(path, env) };
}

describe('RXGATE_MCP_CONFIG files', () => {
  it('reads stdio and Streamable HTTP servers in the format other hosts use, with defaults', () => {
    const { load: read } = load({
      files: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
        env: { DEBUG: '1' },
        cwd: '/tmp',
        autoApprove: [],
      },
      remote: {
        type: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer x' },
        timeoutMs: 5000,
        tools: ['search'],
        requireApproval: ['search'],
      },
      off: { command: 'off-server', enabled: false },
      clineOff: { command: 'off-server', disabled: true },
    });

    expect(read()).toEqual([
      {
        name: 'files',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
        env: { DEBUG: '1' },
        cwd: '/tmp',
        timeoutMs: 60_000,
        requireApproval: false,
        enabled: true,
      },
      {
        name: 'remote',
        transport: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer x' },
        timeoutMs: 5000,
        tools: ['search'],
        requireApproval: ['search'],
        enabled: true,
      },
      {
        name: 'off',
        transport: 'stdio',
        command: 'off-server',
        args: [],
        env: {},
        timeoutMs: 60_000,
        requireApproval: false,
        enabled: false,
      },
      {
        name: 'clineOff',
        transport: 'stdio',
        command: 'off-server',
        args: [],
        env: {},
        timeoutMs: 60_000,
        requireApproval: false,
        enabled: false,
      },
    ]);
  });

  it('takes ${VAR} and ${VAR:-default} from the environment, so secrets need not live in the file', () => {
    const { load: read } = load(
      {
        gh: { url: '${GH_URL:-https://api.example.com/mcp}', headers: { Authorization: 'Bearer ${GH_TOKEN}' } },
        db: { command: 'db-mcp', env: { PASSWORD: '${DB_PASSWORD}' } },
      },
      { GH_TOKEN: 'tok-123', DB_PASSWORD: 'pw-456' },
    );

    expect(read()).toMatchObject([
      { url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer tok-123' } },
      { env: { PASSWORD: 'pw-456' } },
    ]);
  });

  it('reports every problem at once, naming the file, the server and the field, and never a value', () => {
    const { path, load: read } = load({
      a: { command: 'x', args: 'not-a-list', timeoutMs: -1 },
      b: { url: 'ftp://example.com', headers: { Authorization: 'Bearer very-secret-value' } },
      c: { command: 'x', url: 'http://example.com' },
      d: { type: 'sse', url: 'http://example.com/sse' },
      e: { command: 'x', env: { TOKEN: '${MISSING_TOKEN}', OTHER: 7 } },
      f: 'npx server',
    });

    let error: unknown;
    try {
      read();
    } catch (caught) {
      error = caught;
    }

    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message.startsWith(`rxgate: RXGATE_MCP_CONFIG=${path}:\n  mcpServers.a.args: `)).toBe(true);
    expect(message).toContain('mcpServers.a.args: Invalid input: expected array, received string');
    expect(message).toContain('mcpServers.a.timeoutMs: Too small: expected number to be >0');
    expect(message).toContain('mcpServers.b.url: must be an http:// or https:// URL');
    expect(message).toContain('mcpServers.c: needs exactly one of "command" (a stdio server) or "url" (a Streamable HTTP server)');
    expect(message).toContain('mcpServers.d.type: the old HTTP+SSE transport is not supported');
    expect(message).toContain('mcpServers.e.env.OTHER: Invalid input: expected string, received number');
    expect(message).toContain('mcpServers.f: must be an object');
    expect(message).not.toContain('very-secret-value');
  });

  it('names a missing environment variable with the field that needs it', () => {
    const { load: read } = load({ e: { command: 'x', env: { TOKEN: '${MISSING_TOKEN}' } } });

    expect(read).toThrow(/RXGATE_MCP_CONFIG=.*: mcpServers\.e\.env\.TOKEN: the environment variable MISSING_TOKEN is not set$/);
  });

  it('says why a file cannot be used at all', () => {
    const notJson = scratch.path('broken.json');
    writeFileSync(notJson, '{"mcpServers": {');

    expect(() => loadMcpConfig(scratch.path('missing.json'))).toThrow(/RXGATE_MCP_CONFIG=.*missing\.json: cannot read it \(ENOENT\)/);
    expect(() => loadMcpConfig(notJson)).toThrow(/RXGATE_MCP_CONFIG=.*broken\.json: not valid JSON/);
    expect(() => load({}).load()).not.toThrow();
    expect(load({ x: { command: 'x', requireApproval: 'yes' } }).load).toThrow(
      /mcpServers\.x\.requireApproval: must be true, false or a list of tool names/,
    );
    const servers = scratch.path('servers.json');
    writeFileSync(servers, '{"servers": {}}');
    expect(() => loadMcpConfig(servers)).toThrow(/servers\.json: mcpServers: Invalid input: expected record, received undefined/);
  });
});
