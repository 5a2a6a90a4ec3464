import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import express, { type Express, type RequestHandler } from 'express';
import { exhaustMap } from 'rxjs';
import type { Agent } from '../agent/agent.js';
import type { PipelineOperators } from './pipelineOperators.js';
import { DEFAULTS, type Config } from '../config.js';
import { DetachedRuns } from '../detached/DetachedRuns.js';
import { AnswersInFlight } from '../detached/AnswersInFlight.js';
import { Followers } from '../detached/Followers.js';
import { RequestError } from '../errors/RequestError.js';
import { JobScheduler } from '../jobs/JobScheduler.js';
import { silentLogger, type Logger } from '../logger.js';
import { createMetrics, type Metrics } from '../metrics/createMetrics.js';
import { DEFAULT_PRINCIPAL, type Principal } from '../principal.js';
import { ActiveRuns } from '../serving/activeRuns.js';
import { createConversationOpener } from '../conversations/createConversationOpener.js';
import type { RouteHandler } from '../serving/routeHandler.js';
import { recoverResponses } from '../responses/recoverResponses.js';
import { recoverRuns } from '../runs/recoverRuns.js';
import type { Coordinator } from '../store/Coordinator.js';
import type { KeyLimits } from '../store/KeyLimits.js';
import { LocalCoordinator } from '../store/LocalCoordinator.js';
import { LocalKeyLimits } from '../store/LocalKeyLimits.js';
import { SqliteStore } from '../store/sqlite/SqliteStore.js';
import type { Store } from '../store/Store.js';
import { createAccessLog } from './accessLog.js';
import { consoleRoutes } from './consoleRoutes.js';
import { adminOnly } from './adminOnly.js';
import { authenticate } from './authenticate.js';
import { apiKeyAsKeys } from './keys/apiKeyAsKeys.js';
import { enforceKeyPolicy } from './keys/enforceKeyPolicy.js';
import { principalOf } from './keys/principalOf.js';
import { takeStreamSlot } from './keys/takeStreamSlot.js';
import type { KnownKeys } from './keys/resolveKey.js';
import { handleErrors } from './handleErrors.js';
import { healthRoute, readinessRoute } from './healthRoutes.js';
import { metricsRoute } from './metricsRoute.js';
import { advertisedModels } from './advertisedModels.js';
import { modelsRoute, retrieveModelRoute } from './modelsRoute.js';
import { requireKnownModel } from './requireKnownModel.js';
import { refuseCrossSite } from './refuseCrossSite.js';
import { refuseForeignHost } from './refuseForeignHost.js';
import { Overload } from '../health/overload.js';
import { overloadedBy } from '../health/overloadedBy.js';
import { Readiness } from '../health/readiness.js';
import { requestContext } from './requestContext.js';
import { route } from './route.js';
import { traceAgent } from '../agent/traceAgent.js';
import { NO_TRACING, type Tracing } from '../tracing/Tracing.js';
import { traceRequests } from './traceRequests.js';
import { shedWhenOverloaded } from './shedWhenOverloaded.js';
import { corsFor } from './corsFor.js';
import { serveHotRoutes } from './express/serveHotRoutes.js';
import { chatApi } from '../chat/chatApi.js';
import { messagesApi } from '../messages/messagesApi.js';
import { anthropicDialect } from './anthropicDialect.js';
import { conversationsApi } from '../conversations/conversationsApi.js';
import { jobsApi } from '../jobs/jobsApi.js';
import { usageApi } from '../usage/usageApi.js';
import { responsesApi } from '../responses/responsesApi.js';
import { ResponsesSockets } from '../responses/socket/ResponsesSockets.js';
import { admitSocketRun } from './admitSocketRun.js';
import { answerUpgrades } from '../serving/upgrades.js';
import { runsApi } from '../runs/runsApi.js';
import { operatorsPerApi } from './pipelineOperators.js';
import { expressBorn, type RequestClasses } from './express/expressBorn.js';

export type AppConfig = Pick<Config, 'apiKey' | 'modelId' | 'keepaliveMs' | 'maxBodyBytes' | 'maxBufferedBytes' | 'corsOrigins'> &
  Partial<
    Pick<
      Config,
      | 'maxEventLoopDelayMs'
      | 'maxConcurrentRuns'
      | 'maxOutputChars'
      | 'maxConversationBytes'
      | 'maxFollowersPerRun'
      | 'approvalTimeoutMs'
      | 'jobsGraceMs'
      | 'jobsRefreshMs'
      | 'idempotencyTtlMs'
      | 'allowedHosts'
      | 'hostedTools'
      | 'hostedToolsMap'
      | 'ws'
      | 'wsMaxConnections'
      | 'wsMaxAgeMs'
      | 'wsMaxCachedResponses'
      | 'wsMaxQueuedEvents'
    >
  >;

export interface CreateAppOptions {
  readonly agent: Agent;
  readonly config: AppConfig;
  readonly logger?: Logger;
  /** Shared with the server so that shutdown can interrupt what is running. Default: a new registry. */
  readonly activeRuns?: ActiveRuns;
  /**
   * User operators applied to every chat completion: `events` between the run and the encoder,
   * `chunks` between the encoder and serialisation. Each is a factory called once per request.
   */
  readonly operators?: PipelineOperators;
  /** Default: a new registry, served at `GET /metrics`. */
  readonly metrics?: Metrics;
  /** What `GET /health/ready` asks. Default: ready unless shutting down. */
  readonly readiness?: Readiness;
  /**
   * Sheds new `/v1` requests while the event loop lags, and tells readiness. Default: one with
   * `maxEventLoopDelayMs`; whoever listens starts it once listening and stops it (`startServer` does).
   */
  readonly overload?: Overload;
  /**
   * Where the Responses and Runs APIs keep stored responses, runs and event logs; what a dead
   * process left in flight there is marked failed (see `recovered`). Default: a new in-memory
   * store (nothing survives the process; the CLI passes the on-disk one).
   */
  readonly store?: Store;
  /**
   * Who runs what when several instances share the store (`RedisCoordinator`): the cluster-wide
   * cap, stops from any instance, the heartbeat on which a dead instance's runs are ended.
   * Default: this process alone (`LocalCoordinator` with `maxConcurrentRuns`).
   */
  readonly coordinator?: Coordinator;
  /** Where spans go (`startTracing`): a server span per request, the agent's runs, model and tool calls below it. Default: `NO_TRACING`. */
  readonly tracing?: Tracing;
  /**
   * The keys every /v1 route and `/metrics` (admin keys only) require, read per request (a reloaded keys file holds
   * from the next request on; see `watchKeysFile`). Default: `config.apiKey` as the one admin key
   * `default`, or none (no authentication) without it.
   */
  readonly keys?: () => KnownKeys;
  /** The counters behind each key's `rpm` and `maxStreams`. Default: this process's (`LocalKeyLimits`); with Redis, `RedisKeyLimits`. */
  readonly keyLimits?: KeyLimits;
}

export interface RxgateApp {
  readonly app: Express;
  /** For the `node:http` server that listens with `app` (`createServer({ ...requestClasses }, app)`): see `expressBorn`. */
  readonly requestClasses: RequestClasses;
  readonly activeRuns: ActiveRuns;
  readonly metrics: Metrics;
  readonly readiness: Readiness;
  readonly overload: Overload;
  readonly store: Store;
  readonly detachedRuns: DetachedRuns;
  /** Fires the scheduled jobs; `stop()` it on shutdown. */
  readonly jobScheduler: JobScheduler;
  /** Resolves, with how many, once what a dead process left in flight is marked failed; `startServer` listens after it. */
  readonly recovered: Promise<number>;
  /** The `'upgrade'` listener of the server that listens with `app`: the Responses API over WebSocket (`answerUpgrades`). */
  readonly upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** The open WebSocket connections: `drain()` them as shutdown begins, `close()` them once the responses in flight were ended. */
  readonly sockets: Pick<ResponsesSockets, 'drain' | 'close'>;
}

/** Marks what a dead process left in flight as failed; a store that fails here is reported, and readiness says so. */
async function recoverInFlight(store: Store, logger: Logger): Promise<number> {
  try {
    const recovered = (await recoverRuns(store)) + (await recoverResponses(store));
    if (recovered > 0) logger.warn({ recovered }, 'marked responses and runs left in flight by a dead process as failed');
    return recovered;
  } catch (error) {
    logger.error({ err: error }, 'could not mark what a dead process left in flight as failed');
    return 0;
  }
}

const constant =
  <T>(value: T) =>
  () =>
    value;

/** The OpenAI-compatible HTTP API around one agent, as an Express app to listen with or embed. */
export function createApp(options: CreateAppOptions): RxgateApp {
  const {
    config,
    logger = silentLogger,
    activeRuns = new ActiveRuns(),
    metrics = createMetrics(),
    readiness = new Readiness(),
    operators = {},
    tracing = NO_TRACING,
    overload = new Overload({ maxDelayMs: config.maxEventLoopDelayMs ?? DEFAULTS.maxEventLoopDelayMs }),
  } = options;
  const agent = tracing.enabled ? traceAgent(options.agent) : options.agent;
  const store = options.store ?? new SqliteStore({ dataDir: ':memory:' });
  const recovered = recoverInFlight(store, logger);
  const coordinator = options.coordinator ?? new LocalCoordinator(config.maxConcurrentRuns ?? DEFAULTS.maxConcurrentRuns);
  // One sweep at a time: a heartbeat that comes while the last sweep still runs is skipped.
  coordinator.sweeps$.pipe(exhaustMap(() => recoverInFlight(store, logger))).subscribe();
  const detached = new DetachedRuns({
    activeRuns,
    store,
    metrics,
    logger,
    coordinator,
    maxOutputChars: config.maxOutputChars ?? DEFAULTS.maxOutputChars,
  });
  readiness.add({ name: 'store writable', check: async () => store.checkWritable() });
  readiness.add({
    name: 'event loop',
    check: async () => (overload.overloaded ? overloadedBy(overload.delayMs, overload.maxDelayMs) : undefined),
  });

  const accessLog = createAccessLog(metrics);
  const mount = (handler: RouteHandler): RequestHandler => route(accessLog, handler);
  const serving = {
    agent,
    metrics,
    activeRuns,
    defaultModel: config.modelId,
    keepaliveMs: config.keepaliveMs,
    maxBufferedBytes: config.maxBufferedBytes,
    maxOutputChars: config.maxOutputChars ?? DEFAULTS.maxOutputChars,
  };
  const maxConversationBytes = config.maxConversationBytes ?? DEFAULTS.maxConversationBytes;
  const stored = {
    ...serving,
    store,
    detached,
    followers: new Followers(config.maxFollowersPerRun ?? DEFAULTS.maxFollowersPerRun),
    maxConversationBytes,
    openConversation: createConversationOpener(store.conversations, maxConversationBytes),
    approvalTimeoutMs: config.approvalTimeoutMs ?? DEFAULTS.approvalTimeoutMs,
    idempotencyTtlMs: config.idempotencyTtlMs ?? DEFAULTS.idempotencyTtlMs,
    hostedTools: config.hostedTools ?? DEFAULTS.hostedTools,
    hostedToolsMap: config.hostedToolsMap ?? DEFAULTS.hostedToolsMap,
    answers: new AnswersInFlight(),
  };
  const keys = options.keys ?? (config.apiKey ? constant(apiKeyAsKeys(config.apiKey)) : undefined);
  // One set of counters for requests and scheduled fires: a job's run holds a slot of its owner's key like any run.
  const keyLimits = options.keyLimits ?? new LocalKeyLimits();
  const perApi = operatorsPerApi(operators);
  const runs = { ...stored, operators: perApi.runs };
  const ownerKey = keys ? (owner: string) => principalOf(keys(), owner) : () => DEFAULT_PRINCIPAL;
  const jobScheduler = new JobScheduler(runs, {
    graceMs: config.jobsGraceMs ?? DEFAULTS.jobsGraceMs,
    refreshMs: config.jobsRefreshMs ?? DEFAULTS.jobsRefreshMs,
    logger,
    // A job runs as its owner: a revoked key's jobs, or a model its policy no longer allows, fire no run.
    ...(keys
      ? {
          ownerKey,
          ownerSlot: (owner: Principal) => takeStreamSlot(keyLimits, metrics, owner),
        }
      : {}),
  });
  const jobs = { ...runs, jobScheduler, ownerKey };

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const allowedHosts = config.allowedHosts ?? [];
  const upFront: RequestHandler[] = [
    requestContext(logger),
    anthropicDialect(),
    ...(tracing.enabled ? [traceRequests(tracing)] : []),
    // Before every route: without a key, a page that rebinds its name to this server would be served as if it were local.
    ...(keys === undefined || allowedHosts.length > 0 ? [refuseForeignHost(allowedHosts)] : []),
    // Before CORS and every route: a page on an origin not allowed must not run the agent with a simple request.
    refuseCrossSite(config.corsOrigins),
    ...(config.corsOrigins.length > 0 ? [corsFor(config.corsOrigins)] : []),
  ];
  for (const handler of upFront) app.use(handler);
  if (config.corsOrigins.length > 0) {
    app.options(
      /.*/,
      mount((_req, res) => void res.status(204).end()),
    );
  }

  app.get('/health', mount(healthRoute));
  app.get('/health/ready', mount(readinessRoute(readiness)));
  const guard: RequestHandler = keys ? authenticate(keys) : (_req, _res, next) => next();
  app.use(consoleRoutes({ keyRequired: keys !== undefined, accessLog }));
  // Every key's id and usage: one tenant's key must not read the others'.
  app.get('/metrics', guard, adminOnly, mount(metricsRoute(metrics.registry)));

  const v1 = express.Router();
  // One policy for /v1 and /api: a key's rpm counts its requests to both.
  const keyPolicy = keys ? enforceKeyPolicy(keyLimits, metrics, store.budgets, config.modelId) : undefined;
  const v1UpFront: RequestHandler[] = [
    shedWhenOverloaded(overload),
    guard,
    // Any content type is read as JSON: `curl -d` sends form encoding by default, and OpenAI-style clients send JSON anyway.
    express.json({ limit: config.maxBodyBytes, type: () => true, strict: false }),
    ...(keyPolicy ? [keyPolicy] : []),
  ];
  for (const handler of v1UpFront) v1.use(handler);
  const startedAt = Date.now();
  const models = advertisedModels(agent, config.modelId);
  const knownModel = requireKnownModel(models);
  v1.get('/models', mount(modelsRoute(models, startedAt)));
  v1.get('/models/*id', mount(retrieveModelRoute(models, startedAt)));
  const api = { router: v1, mount, knownModel };
  const responses = { ...stored, operators: perApi.responses };
  const sockets = new ResponsesSockets(
    {
      ...responses,
      maxCachedResponses: config.wsMaxCachedResponses ?? DEFAULTS.wsMaxCachedResponses,
      maxQueuedEvents: config.wsMaxQueuedEvents ?? DEFAULTS.wsMaxQueuedEvents,
      maxAgeMs: config.wsMaxAgeMs ?? DEFAULTS.wsMaxAgeMs,
      admit: admitSocketRun(models, keys ? { limits: keyLimits, metrics, budgets: store.budgets } : undefined),
    },
    { maxConnections: config.wsMaxConnections ?? DEFAULTS.wsMaxConnections, maxMessageBytes: config.maxBodyBytes },
  );
  const hotRoutes = [
    ...chatApi(api, { ...stored, operators: perApi.chat }),
    ...responsesApi(api, responses, sockets),
    ...messagesApi(api, { ...serving, operators: perApi.messages }),
  ];
  conversationsApi(api, stored);
  runsApi(api, runs);
  app.use('/v1', v1);

  const teamApi = express.Router();
  teamApi.use(guard, express.json({ limit: config.maxBodyBytes, type: () => true, strict: false }), ...(keyPolicy ? [keyPolicy] : []));
  jobsApi(teamApi, jobs, mount);
  const keysInForce = () =>
    keys ? [...keys().values()].filter(({ expiresAt }) => expiresAt > Date.now()).map(({ principal }) => principal) : [DEFAULT_PRINCIPAL];
  usageApi(teamApi, { usage: store.usage, budgets: store.budgets, keysInForce }, mount);
  app.use('/api', teamApi);

  app.use((req, _res, next) => {
    next(new RequestError(404, `no route for ${req.method} ${req.path}`, 'not_found_error', null, 'unknown_url'));
  });
  const onError = handleErrors(accessLog);
  app.use(onError);
  serveHotRoutes(app, { app: upFront, mountPath: '/v1', mounted: v1UpFront, onError }, hotRoutes);
  return {
    app,
    requestClasses: expressBorn(app),
    activeRuns,
    metrics,
    readiness,
    overload,
    store,
    detachedRuns: detached,
    jobScheduler,
    recovered,
    upgrade: answerUpgrades(app, (config.ws ?? DEFAULTS.ws) === 'on'),
    sockets,
  };
}
