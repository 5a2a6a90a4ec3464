import { z } from 'zod';
import { ConfigError } from './errors/ConfigError.js';

const port = z.coerce.number().int().min(0).max(65535);
const positiveMs = z.coerce.number().int().positive();
/** Node.js fires a timer set longer than this after 1 ms, so that a wait beyond it would end at once. */
export const LONGEST_TIMER_MS = 2_147_483_647;
/** `.max(...LONGEST_TIMER)` on a wait that becomes a timer. */
export const LONGEST_TIMER = [
  LONGEST_TIMER_MS,
  'must be at most 2147483647 (about 24.8 days), the longest wait a Node.js timer keeps',
] as const;
const timerMs = positiveMs.max(...LONGEST_TIMER);
// A stop waits on a timer for up to twice the lease (`stopWithinMs`).
const redisLeaseMs = z.coerce
  .number()
  .int()
  .min(100)
  .max(
    Math.floor(LONGEST_TIMER_MS / 2),
    'must be at most 1073741823 (about 12.4 days): a stop waits up to twice the lease, and 2147483647 ms is the longest wait a Node.js timer keeps',
  );
const positiveBytes = z.coerce.number().int().positive();
const positiveInt = z.coerce.number().int().positive();
/** A URL rxgate sends HTTP to: nothing else is reachable that way, and `localhost:8000/v1` parses as a URL of the scheme `localhost:`. */
const httpUrl = (what: string) => z.url({ protocol: /^https?$/, error: `must be an http:// or https:// URL, ${what}` });
/** An upstream's API root. */
export const upstreamUrl = httpUrl('the API root (e.g. "http://127.0.0.1:8000/v1")');
const optionalText = z.string().min(1).optional();
const MIN_API_KEY_LENGTH = 16;
// Trimmed: a key read from a file often ends in a newline that no client sends.
const apiKey = z
  .string()
  .trim()
  .min(1, 'is only whitespace, which would pass for a key; set a real one or leave it unset')
  .min(
    MIN_API_KEY_LENGTH,
    `is shorter than ${MIN_API_KEY_LENGTH} characters, too easy to guess for the one guard of the API; use a long random key (openssl rand -hex 32)`,
  )
  .optional();
// Whatever the upstream issued, as long as it is something.
const upstreamApiKey = z
  .string()
  .refine((key) => key.trim() !== '', 'is only whitespace; set the key the upstream issued or leave it unset')
  .optional();
const percentDecodes = (text: string): boolean => {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
};
// Percent-encoded, as the OpenTelemetry specification says: a lone `%` would fail to decode when tracing starts.
const resourceAttributes = z
  .string()
  .refine(
    (value) => value.split(',').every((pair) => pair.trim() === '' || (/^[^=]+=.*$/.test(pair) && percentDecodes(pair))),
    'must be comma-separated key=value pairs, percent-encoded (a % written %25)',
  );
// One URL; several, comma-separated, are the seed nodes of a Redis Cluster.
const redisUrls = z
  .string()
  .refine(
    (value) => value.split(',').every((url) => URL.canParse(url.trim())),
    'must be a URL, or with RXGATE_REDIS_CLUSTER comma-separated URLs',
  )
  .optional();
const list = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== ''),
);

/** The hosted tools an operator may map to a server tool (`RXGATE_HOSTED_TOOLS_MAP`): those whose call items rxgate can report. */
export const MAPPABLE_HOSTED_TOOLS = [
  'web_search',
  'web_search_2025_08_26',
  'web_search_preview',
  'web_search_preview_2025_03_11',
  'file_search',
] as const;
export type MappableHostedTool = (typeof MAPPABLE_HOSTED_TOOLS)[number];
const MAPPABLE: ReadonlySet<string> = new Set(MAPPABLE_HOSTED_TOOLS);

// `web_search=search__brave_web_search,file_search=docs__find`: each hosted tool once, each to a tool name a model accepts.
const hostedToolsMap = list.transform((pairs, context): Partial<Record<MappableHostedTool, string>> => {
  const map: Partial<Record<MappableHostedTool, string>> = {};
  for (const pair of pairs) {
    const [hosted = '', tool = ''] = pair.split('=').map((part) => part.trim());
    if (!MAPPABLE.has(hosted) || !/^[a-zA-Z0-9_-]{1,64}$/.test(tool) || hosted in map) {
      context.addIssue({
        code: 'custom',
        message: `'${pair}' must be <hosted tool>=<server tool name>, each hosted tool once, the hosted tool one of ${MAPPABLE_HOSTED_TOOLS.join(', ')}`,
      });
      return z.NEVER;
    }
    map[hosted as MappableHostedTool] = tool;
  }
  return map;
});

/**
 * Every setting rxgate has: its environment variable (each is also a CLI flag, `RXGATE_KEEPALIVE_MS`
 * is `--keepalive-ms`), its default, and its check. The README's table is this table.
 */
// One line per setting, as the README's table reads.
// prettier-ignore
export const SETTINGS = {
  host: { env: 'RXGATE_HOST', default: '127.0.0.1', schema: z.string().min(1), doc: 'Address to bind. Anything but loopback requires `RXGATE_API_KEY` or `RXGATE_KEYS_FILE`.' },
  port: { env: 'RXGATE_PORT', default: '8642', schema: port, doc: 'Port to listen on (0 picks a free one).' },
  healthPort: { env: 'RXGATE_HEALTH_PORT', default: undefined, schema: port.optional(), doc: 'Port of a second listener that answers only `GET /health` and `GET /health/ready`, from a thread of its own, so that probes are answered within milliseconds however busy the gateway is (see "Health"); point orchestrator probes at it. Unset: none (0 picks a free one).' },
  apiKey: { env: 'RXGATE_API_KEY', default: undefined, schema: apiKey, secret: true, doc: 'Bearer key every /v1 route requires, at least 16 characters. Unset: no auth, loopback only.' },
  keysFile: { env: 'RXGATE_KEYS_FILE', default: undefined, schema: optionalText, doc: 'Path of a JSON file of API keys (digests only), each with its own id and limits; reloaded when it changes and on SIGHUP (see "Teams"). With `RXGATE_API_KEY`, that key is one more admin key, `default`.' },
  upstreamUrl: { env: 'RXGATE_UPSTREAM_URL', default: undefined, schema: upstreamUrl.optional(), doc: 'OpenAI-compatible base URL, http:// or https://, ending in /v1. Unset: the built-in offline agent.' },
  upstreamApiKey: { env: 'RXGATE_UPSTREAM_API_KEY', default: undefined, schema: upstreamApiKey, secret: true, doc: 'Bearer key sent to the upstream. Never logged.' },
  upstreamModel: { env: 'RXGATE_UPSTREAM_MODEL', default: undefined, schema: optionalText, doc: 'Model name sent to the upstream. Required with `RXGATE_UPSTREAM_URL`.' },
  upstreamTimeoutMs: { env: 'RXGATE_UPSTREAM_TIMEOUT_MS', default: undefined, schema: timerMs.optional(), doc: 'Opt-in: longest one upstream call may take, first byte to last, even while it is still producing. Unset: no such limit (the silence is timed out instead).' },
  upstreamConnectTimeoutMs: { env: 'RXGATE_UPSTREAM_CONNECT_TIMEOUT_MS', default: '10000', schema: timerMs, doc: 'Longest opening a connection to the upstream may take (a routes file\'s default `connectMs`).' },
  upstreamFirstByteTimeoutMs: { env: 'RXGATE_UPSTREAM_FIRST_BYTE_TIMEOUT_MS', default: '60000', schema: timerMs, doc: 'Longest the upstream may take to answer with its headers (a routes file\'s default `firstByteMs`).' },
  upstreamFirstTokenTimeoutMs: { env: 'RXGATE_UPSTREAM_FIRST_TOKEN_TIMEOUT_MS', default: '120000', schema: timerMs, doc: 'Longest the upstream may stay silent before its first token (a routes file\'s default `firstContentMs`).' },
  upstreamIdleTimeoutMs: { env: 'RXGATE_UPSTREAM_IDLE_TIMEOUT_MS', default: '60000', schema: timerMs, doc: 'Longest the upstream may stay silent between two reads of its answer, reset on every byte (a routes file\'s default `idleMs`).' },
  routesFile: { env: 'RXGATE_ROUTES_FILE', default: undefined, schema: optionalText, doc: 'Path of a JSON file of several upstreams and the model names routed to them, with retries, failover and breakers (see "Several upstreams"). Unset: `RXGATE_UPSTREAM_*` is the one route.' },
  pricesFile: { env: 'RXGATE_PRICES_FILE', default: undefined, schema: optionalText, doc: 'Path of a JSON file of what each upstream model costs, USD per million tokens by kind (see "Costs"); reloaded when it changes and on SIGHUP. Unset: only route targets with their own `price` are priced.' },
  upstreamMaxFrameBytes: { env: 'RXGATE_UPSTREAM_MAX_FRAME_BYTES', default: '1048576', schema: positiveBytes, doc: 'Most bytes the upstream may send without ending an SSE event; past it the call fails with `upstream_malformed_frame`.' },
  tools: { env: 'RXGATE_TOOLS', default: 'current_time,calculator', schema: list, doc: 'Comma-separated built-in tools the agent may call (empty: none).' },
  mcpConfig: { env: 'RXGATE_MCP_CONFIG', default: undefined, schema: optionalText, doc: 'Path of a JSON file of MCP servers whose tools the LLM agent may call, besides the built-in ones (see "MCP tools").' },
  mcpMaxMessageBytes: { env: 'RXGATE_MCP_MAX_MESSAGE_BYTES', default: '4194304', schema: positiveBytes, doc: 'Largest message an MCP server may send (a stdio line, a Streamable HTTP SSE event or JSON body); past it rxgate closes the connection, fails the calls running on it with an error that names this limit, and reconnects.' },
  hostedTools: { env: 'RXGATE_HOSTED_TOOLS', default: 'ignore', schema: z.enum(['ignore', 'refuse']), doc: 'What a Responses request\'s hosted tools (`web_search`, `file_search`, `code_interpreter` and the rest, which rxgate cannot run) get: `ignore` leaves them out of the model\'s offer and names them in `x-rxgate-ignored-tools`; `refuse` answers 400 naming the tool.' },
  hostedToolsMap: { env: 'RXGATE_HOSTED_TOOLS_MAP', default: '', schema: hostedToolsMap, doc: 'Comma-separated `<hosted tool>=<server tool>` pairs (`web_search=search__brave_web_search`): a Responses request that offers that hosted tool gets the server tool (built-in or MCP, named as the model sees it) in its place, and its calls are reported as the hosted tool\'s items (`web_search_call`, `file_search_call`). Mappable: `web_search` (and its dated and preview types), `file_search`.' },
  ws: { env: 'RXGATE_WS', default: 'on', schema: z.enum(['on', 'off']), doc: 'The Responses API over WebSocket (`GET /v1/responses` with `Upgrade: websocket`); `off` answers every upgrade 426 at once, so a client such as Codex falls back to HTTP without retrying.' },
  wsMaxConnections: { env: 'RXGATE_WS_MAX_CONNECTIONS', default: '16', schema: positiveInt, doc: 'WebSocket connections one key may hold open at once (429 `rate_limit_exceeded` at the upgrade above).' },
  wsMaxAgeMs: { env: 'RXGATE_WS_MAX_AGE_MS', default: '3600000', schema: timerMs, doc: 'Longest one WebSocket connection lives; then it closes with code 4000 `connection max age reached` once its running response has ended, and the client opens another.' },
  wsMaxQueuedEvents: { env: 'RXGATE_WS_MAX_QUEUED_EVENTS', default: '16', schema: positiveInt, doc: 'Client events a WebSocket connection may send ahead of the response it is answering; one more closes it with code 1008 `too many events waiting`, the response in flight interrupted.' },
  wsMaxCachedResponses: { env: 'RXGATE_WS_MAX_CACHED_RESPONSES', default: '64', schema: positiveInt, doc: 'Responses a WebSocket connection remembers for `previous_response_id` (with `store: false` too); the oldest is forgotten first.' },
  requireApproval: { env: 'RXGATE_REQUIRE_APPROVAL', default: '', schema: list, doc: 'Comma-separated tool names or globs (`fs__write_*,shell__*`) whose calls wait for a person\'s approval (see "People in the loop").' },
  approvalTimeoutMs: { env: 'RXGATE_APPROVAL_TIMEOUT_MS', default: '600000', schema: timerMs, doc: 'How long a call waits for approval in a run before it is denied as timed out.' },
  maxToolIterations: { env: 'RXGATE_MAX_TOOL_ITERATIONS', default: '10', schema: positiveInt, doc: 'Model calls one run may make before it finishes with `length`.' },
  modelId: { env: 'RXGATE_MODEL_ID', default: 'rxgate-agent', schema: z.string().min(1), doc: 'Model id advertised by `GET /v1/models`.' },
  keepaliveMs: { env: 'RXGATE_KEEPALIVE_MS', default: '10000', schema: timerMs, doc: 'SSE comment interval while nothing else is written.' },
  maxBodyBytes: { env: 'RXGATE_MAX_BODY_BYTES', default: '10485760', schema: positiveBytes, doc: 'Largest request body accepted (413 above).' },
  maxBufferedBytes: { env: 'RXGATE_MAX_BUFFERED_BYTES', default: '1048576', schema: positiveBytes, doc: 'Unread bytes a slow client may owe before it is cut off.' },
  maxOutputChars: { env: 'RXGATE_MAX_OUTPUT_CHARS', default: '1000000', schema: positiveInt, doc: 'Characters of text and reasoning one answer may have, and of tool-call names and arguments one model call may send; past either the answer ends as cut by length (`finish_reason: "length"`), and a cut tool call is neither run nor sent back.' },
  maxConversationBytes: { env: 'RXGATE_MAX_CONVERSATION_BYTES', default: '16777216', schema: positiveBytes, doc: 'Largest stored conversation a `previous_response_id` or `conversation` may continue, in bytes of its stored turns or items (400 above, unless `truncation: "auto"` with `conversation`).' },
  corsOrigins: { env: 'RXGATE_CORS_ORIGINS', default: '', schema: list, doc: 'Comma-separated allowed browser origins, or `*`. Empty: CORS off.' },
  allowedHosts: {
    env: 'RXGATE_ALLOWED_HOSTS',
    default: '',
    schema: list,
    doc: 'Comma-separated host names the server answers to besides `localhost` and IP addresses, or `*` for any; another `Host` gets 403 `host_not_allowed` (a DNS-rebinding guard). Checked when no key is set, or when this is set.',
  },
  headersTimeoutMs: { env: 'RXGATE_HEADERS_TIMEOUT_MS', default: '15000', schema: positiveMs, doc: 'Longest a client may take to send its request headers (slowloris guard).' },
  requestTimeoutMs: {
    env: 'RXGATE_REQUEST_TIMEOUT_MS',
    default: '30000',
    schema: positiveMs,
    doc: 'Longest a client may take to send its whole request, body included; at least `RXGATE_HEADERS_TIMEOUT_MS`. Responses may stream longer.',
  },
  maxEventLoopDelayMs: { env: 'RXGATE_MAX_EVENT_LOOP_DELAY_MS', default: '0', schema: z.coerce.number().int().min(0), doc: 'Event-loop delay past which new requests are shed with 503 `overloaded` and `GET /health/ready` says not ready, while running streams go on; requests are taken again once it stayed under for 1 s. 0 (the default): never shed; 200 suits most deployments (see "Overload").' },
  shutdownGraceMs: { env: 'RXGATE_SHUTDOWN_GRACE_MS', default: '10000', schema: z.coerce.number().int().min(0).max(...LONGEST_TIMER), doc: 'How long running streams may finish after SIGTERM before they are interrupted.' },
  operatorsModule: {
    env: 'RXGATE_OPERATORS_MODULE',
    default: undefined,
    schema: optionalText,
    doc: 'Path of an ES module whose default export is the `PipelineOperators` to apply to every response.',
  },
  dataDir: { env: 'RXGATE_DATA_DIR', default: 'data', schema: z.string().min(1), doc: 'Directory of the SQLite store (stored responses, runs, event logs), created on first start.' },
  maxConcurrentRuns: { env: 'RXGATE_MAX_CONCURRENT_RUNS', default: '16', schema: positiveInt, doc: 'Background responses and runs in flight at once (429 above); with `RXGATE_REDIS_URL`, across every instance sharing the Redis.' },
  idempotencyTtlMs: { env: 'RXGATE_IDEMPOTENCY_TTL_MS', default: '86400000', schema: positiveMs, doc: 'How long an `Idempotency-Key` of `POST /v1/runs`, `POST /v1/responses` and `POST /v1/chat/completions` is remembered, per key owner (see "Teams").' },
  maxFollowersPerRun: { env: 'RXGATE_MAX_FOLLOWERS_PER_RUN', default: '64', schema: positiveInt, doc: 'Connections that may follow one run\'s, background response\'s or replayed stream\'s events at once (429 above).' },
  retentionMaxItems: { env: 'RXGATE_RETENTION_MAX_ITEMS', default: '10000', schema: positiveInt, doc: 'Stored responses, and finished runs, kept; the oldest are evicted first.' },
  retentionMaxAgeDays: { env: 'RXGATE_RETENTION_MAX_AGE_DAYS', default: '30', schema: z.coerce.number().positive(), doc: 'Stored responses and finished runs older than this are evicted.' },
  budgetReserveOutputTokens: { env: 'RXGATE_BUDGET_RESERVE_OUTPUT_TOKENS', default: '4096', schema: positiveInt, doc: "Output tokens a model call that names no limit (`max_tokens`, `max_output_tokens`) is held for against its key's budget, besides its input; a call that produces more is settled at what it cost, the overage counted (`rxgate_budget_overage_usd_total`)." },
  budgetLeaseMs: { env: 'RXGATE_BUDGET_LEASE_MS', default: '900000', schema: positiveInt, doc: "How long a model call's hold on its key's budget counts when it never settles (its instance died): longer than the longest model call." },
  usageRetentionDays: { env: 'RXGATE_USAGE_RETENTION_DAYS', default: '90', schema: z.coerce.number().positive(), doc: "The usage ledger's rows (one a model call, `GET /api/usage`) older than this are removed." },
  redisUrl: { env: 'RXGATE_REDIS_URL', default: undefined, schema: redisUrls, doc: 'Redis (`redis://host:port/db`) that keeps stored responses, runs and event logs instead of SQLite, so that several instances share them (see "Running several instances"). With `RXGATE_REDIS_CLUSTER`, one or more nodes of the cluster, comma-separated.' },
  redisCluster: { env: 'RXGATE_REDIS_CLUSTER', default: 'false', schema: z.stringbool(), doc: '`true` (or `1`) when `RXGATE_REDIS_URL` is a Redis Cluster: its nodes are discovered from the ones given, and followers are woken by sharded pub/sub (see "Running several instances").' },
  redisPrefix: { env: 'RXGATE_REDIS_PREFIX', default: 'rxgate:', schema: z.string().min(1), doc: 'Put before every Redis key rxgate writes.' },
  redisLeaseMs: { env: 'RXGATE_REDIS_LEASE_MS', default: '10000', schema: redisLeaseMs, doc: 'How long an instance\'s lease on its runs lasts unless renewed (every third of it); a run whose instance let it expire is marked failed by another.' },
  jobsGraceMs: { env: 'RXGATE_JOBS_GRACE_MS', default: '60000', schema: z.coerce.number().int().min(0), doc: 'How late a job\'s slot missed while no instance ran may still fire (once, however many were missed); older ones are let go (see "Scheduled jobs").' },
  jobsRefreshMs: { env: 'RXGATE_JOBS_REFRESH_MS', default: '5000', schema: timerMs, doc: 'How often an instance reads the job list again, to see jobs that other instances made, changed or removed.' },
  otelEndpoint: { env: 'OTEL_EXPORTER_OTLP_ENDPOINT', default: undefined, schema: httpUrl('the OTLP/HTTP collector (e.g. "http://127.0.0.1:4318")').optional(), doc: 'OTLP/HTTP collector base URL, http:// or https:// (traces go to `/v1/traces` under it). Unset, with `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` unset too: tracing off, the OpenTelemetry SDK not even loaded (see "Traces").' },
  otelTracesEndpoint: { env: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', default: undefined, schema: httpUrl('the OTLP/HTTP traces URL (e.g. "http://127.0.0.1:4318/v1/traces")').optional(), doc: 'Full OTLP/HTTP traces URL, http:// or https://, used as it is; wins over `OTEL_EXPORTER_OTLP_ENDPOINT`.' },
  otelTracesProtocol: { env: 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', default: 'http/protobuf', schema: z.enum(['http/protobuf', 'http/json']), doc: 'OTLP encoding of exported spans: `http/protobuf` or `http/json`.' },
  otelServiceName: { env: 'OTEL_SERVICE_NAME', default: 'rxgate', schema: z.string().min(1), doc: 'The `service.name` of every span.' },
  otelTracesSampler: { env: 'OTEL_TRACES_SAMPLER', default: 'parentbased_always_on', schema: z.enum(['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio']), doc: 'Which requests are traced: `always_on`, `always_off`, `traceidratio`, or `parentbased_` one of them (follow an incoming `traceparent`\'s decision).' },
  otelTracesSamplerArg: { env: 'OTEL_TRACES_SAMPLER_ARG', default: '1', schema: z.coerce.number().min(0).max(1), doc: 'The ratio of the `traceidratio` samplers, from 0 to 1.' },
  otelResourceAttributes: { env: 'OTEL_RESOURCE_ATTRIBUTES', default: '', schema: resourceAttributes, doc: 'Comma-separated `key=value` resource attributes of every span (`deployment.environment.name=prod`).' },
  otelCaptureContent: { env: 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT', default: 'false', schema: z.stringbool(), doc: '`true`: model calls\' spans carry the messages in and out, and tool calls\' their arguments and results. Off by default: they may be personal.' },
  logLevel: { env: 'RXGATE_LOG_LEVEL', default: 'info', schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), doc: 'pino log level.' },
} as const;

type Settings = typeof SETTINGS;
export type Config = { readonly [K in keyof Settings]: z.output<Settings[K]['schema']> };
export type ConfigSource = Readonly<Record<string, string | undefined>>;

/** `RXGATE_KEEPALIVE_MS` -> `--keepalive-ms`. */
export function flagOf(env: string): string {
  return `--${env
    .replace(/^RXGATE_/, '')
    .toLowerCase()
    .replaceAll('_', '-')}`;
}

/** Reads `--flag value` and `--flag=value` pairs into the environment names they stand for. */
function flagsToEnv(argv: readonly string[]): Record<string, string> {
  const byFlag = new Map(Object.values(SETTINGS).map((setting) => [flagOf(setting.env), setting.env]));
  const values: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const env = byFlag.get(flag);
    if (!env) throw new ConfigError(`unknown option ${flag}; known options: ${[...byFlag.keys()].join(', ')}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new ConfigError(`option ${flag} needs a value`);
    values[env] = value;
  }
  return values;
}

/**
 * The configuration from the environment, overridden by CLI flags. Every bad value is reported
 * at once, each with its variable name, and nothing starts.
 */
export function loadConfig(env: ConfigSource = process.env, argv: readonly string[] = []): Config {
  const source = { ...env, ...flagsToEnv(argv) };
  const config: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, setting] of Object.entries(SETTINGS)) {
    const raw = source[setting.env] === '' && setting.default === undefined ? undefined : (source[setting.env] ?? setting.default);
    const parsed = (setting.schema as z.ZodType).safeParse(raw);
    if (parsed.success) config[key] = parsed.data;
    else {
      // A key that is refused is still somebody's key: say what is wrong with it, never what it is.
      const shown = 'secret' in setting ? `(${String(raw).length} characters, not shown)` : JSON.stringify(raw);
      problems.push(`${setting.env}=${shown}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    }
  }
  if (config.routesFile && config.upstreamUrl)
    problems.push('RXGATE_ROUTES_FILE and RXGATE_UPSTREAM_URL are both set: the routes file names every upstream, unset one of them');
  if (config.upstreamUrl && !config.upstreamModel) problems.push('RXGATE_UPSTREAM_MODEL is required when RXGATE_UPSTREAM_URL is set');
  if (typeof config.redisUrl === 'string' && config.redisUrl.includes(',') && !config.redisCluster)
    problems.push('RXGATE_REDIS_URL lists several URLs, which only a Redis Cluster takes: set RXGATE_REDIS_CLUSTER=true');
  if (config.redisCluster && !config.redisUrl) problems.push('RXGATE_REDIS_CLUSTER needs RXGATE_REDIS_URL, a node of the cluster');
  if (Number(config.headersTimeoutMs) > Number(config.requestTimeoutMs))
    problems.push('RXGATE_HEADERS_TIMEOUT_MS must not exceed RXGATE_REQUEST_TIMEOUT_MS');
  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
  return config as Config;
}

/** Every setting at its default: the one place library code takes a default from. */
export const DEFAULTS: Config = loadConfig({});
