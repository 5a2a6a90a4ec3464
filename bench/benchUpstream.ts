import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHoldBarriers, type HoldBarriers } from './holdBarriers.js';

/**
 * What one request asks the bench upstream to do. It travels as the JSON text of the last user
 * message, so it reaches the upstream unchanged through rxgate and through the relays.
 */
export interface Scenario {
  /** Correlates the request with what the upstream saw (arrival, socket close). */
  readonly id?: string;
  /** Text deltas to send. */
  readonly deltas: number;
  /** Pause between deltas; 0 sends them as fast as the socket takes them. */
  readonly everyMs: number;
  /** Silence after the headers, before the first delta. */
  readonly silentMs?: number;
  /** Send the headers, then nothing, until the client leaves. */
  readonly stall?: boolean;
  /** The text of each delta. Default `"tok "`. */
  readonly text?: string;
  /**
   * With `everyMs` > 0: send the first delta at once, then hold the stream at the barrier of this
   * name until the bench releases it (`release`), then the rest, starting at a random point of the
   * first `everyMs` so that the streams released together do not tick together.
   */
  readonly hold?: string;
  /** Answer with one call of this function (arguments `{}`) in place of text, as a model in a tool loop does. */
  readonly toolCall?: { readonly name: string; readonly callId: string };
}

/** What the upstream tells about a request that carries a scenario id; times on `clock()`. */
export type VisitEvent = { type: 'arrived'; id: string; at: number } | { type: 'closed'; id: string; at: number; finished: boolean };

/**
 * Milliseconds on the system's monotonic clock (`CLOCK_MONOTONIC`), which every process on the
 * machine shares: the upstream's process and the client's can compare their times.
 */
export const clock = () => Number(process.hrtime.bigint()) / 1e6;

/** The chat request that carries a scenario. */
export function chatBody(scenario: Scenario, stream: boolean): string {
  return JSON.stringify({ model: 'bench', stream, messages: [{ role: 'user', content: JSON.stringify(scenario) }] });
}

const frameOf = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`;
const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
  id: 'chatcmpl-bench',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'bench',
  choices: [{ index: 0, delta, finish_reason: finishReason }],
});
const ROLE = frameOf(chunk({ role: 'assistant', content: '' }));
const FINISH = frameOf(chunk({}, 'stop'));
const USAGE_AND_DONE = `${frameOf({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'bench', choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } })}data: [DONE]\n\n`;
/** Frames per write when streaming flat out: the upstream must not be what limits throughput. */
const BATCH = 64;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

async function writeFlatOut(res: ServerResponse, frame: string, count: number): Promise<void> {
  const batch = frame.repeat(BATCH);
  let left = count;
  while (left > 0 && !res.destroyed) {
    const n = Math.min(left, BATCH);
    left -= n;
    if (!res.write(n === BATCH ? batch : frame.repeat(n))) await drainOrClose(res);
  }
}

async function play(res: ServerResponse, scenario: Scenario, stream: boolean, barriers: HoldBarriers): Promise<void> {
  const text = scenario.text ?? 'tok ';
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'chatcmpl-bench',
        object: 'chat.completion',
        created: 1,
        model: 'bench',
        choices: [{ index: 0, message: { role: 'assistant', content: text.repeat(scenario.deltas) }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: scenario.deltas, total_tokens: scenario.deltas + 1 },
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.flushHeaders();
  if (scenario.stall) return;
  if (scenario.silentMs) await sleep(scenario.silentMs);
  if (res.destroyed) return;
  res.write(ROLE);
  if (scenario.toolCall) {
    const { name, callId } = scenario.toolCall;
    const call = chunk({ tool_calls: [{ index: 0, id: callId, type: 'function', function: { name, arguments: '{}' } }] });
    res.end(frameOf(call) + frameOf(chunk({}, 'tool_calls')) + USAGE_AND_DONE);
    return;
  }
  const frame = frameOf(chunk({ content: text }));
  if (scenario.everyMs === 0) {
    await writeFlatOut(res, frame, scenario.deltas);
  } else {
    let sent = 0;
    if (scenario.hold !== undefined && scenario.deltas > 0) {
      res.write(frame);
      sent = 1;
      await barriers.hold(scenario.hold, res);
      await sleep(Math.random() * scenario.everyMs);
    }
    for (let i = sent; i < scenario.deltas && !res.destroyed; i++) {
      await sleep(scenario.everyMs);
      if (!res.destroyed) res.write(frame);
    }
  }
  if (!res.destroyed) res.end(FINISH + USAGE_AND_DONE);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * A lean OpenAI-compatible upstream on 127.0.0.1 that plays the scenario each request carries and
 * tells `onVisit` when a request with a scenario id arrived and when its socket closed.
 */
export async function startBenchUpstream(
  onVisit: (event: VisitEvent) => void,
): Promise<{ server: Server; port: number; release: HoldBarriers['release'] }> {
  const barriers = createHoldBarriers();
  const server: Server = createServer((req, res) => {
    readBody(req)
      .then(
        (text) => {
          const body = JSON.parse(text) as { stream?: boolean; messages: { content: string }[] };
          const scenario = JSON.parse(body.messages.at(-1)!.content) as Scenario;
          const { id } = scenario;
          if (id !== undefined) {
            onVisit({ type: 'arrived', id, at: clock() });
            if (res.closed) onVisit({ type: 'closed', id, at: clock(), finished: res.writableFinished });
            else res.once('close', () => onVisit({ type: 'closed', id, at: clock(), finished: res.writableFinished }));
          }
          return play(res, scenario, body.stream !== false, barriers);
        },
        () => res.destroy(),
      )
      .catch(() => res.destroy());
  });
  server.keepAliveTimeout = 5_000;
  server.listen(0, '127.0.0.1', 4096);
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, release: barriers.release };
}
