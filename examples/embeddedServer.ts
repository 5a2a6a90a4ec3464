/**
 * Embeds rxgate in your own program with two operators in the pipeline: the shipped `rateLimit`,
 * and a custom one written here. Run it with `npm run example`, then point any OpenAI client at
 * the URL it prints. In your project, import from 'rxgate' instead of '../src/index.js'.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { concatMap, of, type MonoTypeOperatorFunction } from 'rxjs';
import {
  BUILTIN_TOOLS,
  createApp,
  createLogger,
  createOfflineAgent,
  loadConfig,
  rateLimit,
  type AgentEvent,
  type EventOperator,
} from '../src/index.js';

/** A custom operator: a line of text just before the run finishes, on every answer. */
export function appendFooter(footer: string): MonoTypeOperatorFunction<AgentEvent> {
  const footerEvent: AgentEvent = { type: 'text', delta: footer };
  return concatMap((event) => (event.type === 'finish' ? of(footerEvent, event) : of(event)));
}

const footer: EventOperator = () => appendFooter('\n\n(answered by rxgate)');
const paced: EventOperator = ({ scheduler }) => rateLimit({ charsPerSecond: 400, burst: 40, scheduler });

export async function startEmbeddedServer(port = 8643): Promise<{ server: Server; url: string }> {
  const config = loadConfig({ RXGATE_LOG_LEVEL: 'warn' });
  const logger = createLogger(config.logLevel);
  const agent = createOfflineAgent({ logger, tools: BUILTIN_TOOLS, delayMs: 10 });
  const { app, requestClasses } = createApp({ agent, config, logger, operators: { events: [paced, footer] } });
  // Requests born with Express's prototypes: see `RxgateApp.requestClasses`.
  const server = createServer({ ...requestClasses }, app).listen(port, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { url } = await startEmbeddedServer();
  process.stdout.write(`embedded rxgate with a rate limit and a footer on ${url}\n`);
}
