import cors from 'cors';
import express, { type Express, type RequestHandler } from 'express';
import type { Agent } from '../agent/agent.js';
import type { Config } from '../config.js';
import { RequestError } from '../errors/RequestError.js';
import { silentLogger, type Logger } from '../logger.js';
import { createMetrics, type Metrics } from '../metrics/createMetrics.js';
import type { PipelineOperators } from '../pipeline/pipelineOperators.js';
import { DetachedRuns } from '../detached/DetachedRuns.js';
import { Store } from '../store/Store.js';
import { ActiveRuns } from './activeRuns.js';
import { authenticate } from './authenticate.js';
import { handleErrors } from './handleErrors.js';
import { Readiness } from './readiness.js';
import { requestContext } from './requestContext.js';
import { responsesRouter } from './responses/responsesRouter.js';
import { runsRouter } from './runs/runsRouter.js';
import { chatCompletionsRoute } from './routes/chatCompletions.js';
import { healthRoute, readinessRoute } from './routes/health.js';
import { metricsRoute } from './routes/metrics.js';
import { modelsRoute } from './routes/models.js';

export type AppConfig = Pick<Config, 'apiKey' | 'modelId' | 'keepaliveMs' | 'maxBodyBytes' | 'maxBufferedBytes' | 'corsOrigins'> &
  Partial<Pick<Config, 'maxConcurrentRuns'>>;

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
   * Where the Responses and Runs APIs keep stored responses, runs and event logs. Default: a new
   * in-memory store (nothing survives the process; `startServer` passes the on-disk one).
   */
  readonly store?: Store;
}

export interface RxgateApp {
  readonly app: Express;
  readonly activeRuns: ActiveRuns;
  readonly metrics: Metrics;
  readonly readiness: Readiness;
  readonly store: Store;
  readonly detachedRuns: DetachedRuns;
}

const EXPOSED_HEADERS = ['X-Request-Id'];

function corsFor(origins: readonly string[]) {
  return cors({
    origin: origins.includes('*') ? '*' : [...origins],
    methods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'Last-Event-ID', 'OpenAI-Organization', 'OpenAI-Project'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
}

/** The OpenAI-compatible HTTP API around one agent, as an Express app to listen with or embed. */
export function createApp(options: CreateAppOptions): RxgateApp {
  const {
    agent,
    config,
    logger = silentLogger,
    activeRuns = new ActiveRuns(),
    metrics = createMetrics(),
    readiness = new Readiness(),
    operators = {},
  } = options;
  const store = options.store ?? new Store({ dataDir: ':memory:' });
  const detachedRuns = new DetachedRuns({ activeRuns, log: store.events, metrics, maxConcurrent: config.maxConcurrentRuns ?? 16 });
  readiness.add({ name: 'store writable', check: async () => store.checkWritable() });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestContext(logger, metrics));
  if (config.corsOrigins.length > 0) app.use(corsFor(config.corsOrigins));

  app.get('/health', healthRoute);
  app.get('/health/ready', readinessRoute(readiness));
  const guard: RequestHandler = config.apiKey ? authenticate(config.apiKey) : (_req, _res, next) => next();
  app.get('/metrics', guard, metricsRoute(metrics.registry));

  const v1 = express.Router();
  v1.use(guard);
  // Any content type is read as JSON: `curl -d` sends form encoding by default, and OpenAI-style clients send JSON anyway.
  v1.use(express.json({ limit: config.maxBodyBytes, type: () => true, strict: false }));
  v1.get('/models', modelsRoute(config.modelId, Date.now()));
  v1.post(
    '/chat/completions',
    chatCompletionsRoute({
      agent,
      activeRuns,
      metrics,
      operators,
      defaultModel: config.modelId,
      keepaliveMs: config.keepaliveMs,
      maxBufferedBytes: config.maxBufferedBytes,
    }),
  );
  const stored = {
    agent,
    store,
    metrics,
    detached: detachedRuns,
    defaultModel: config.modelId,
    keepaliveMs: config.keepaliveMs,
    maxBufferedBytes: config.maxBufferedBytes,
  };
  v1.use(responsesRouter({ ...stored, activeRuns }));
  v1.use(runsRouter(stored));
  app.use('/v1', v1);

  app.use((req, _res, next) => {
    next(new RequestError(404, `no route for ${req.method} ${req.path}`, 'not_found_error', null, 'unknown_url'));
  });
  app.use(handleErrors);
  return { app, activeRuns, metrics, readiness, store, detachedRuns };
}
