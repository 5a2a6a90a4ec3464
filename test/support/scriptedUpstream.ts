import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One step of a scripted response, played in order. */
export type UpstreamStep =
  /** One SSE data frame carrying this object as JSON. */
  | { readonly chunk: unknown }
  /** One SSE data frame with this exact payload (`[DONE]`, or garbage). */
  | { readonly data: string }
  /** These exact bytes. */
  | { readonly raw: string }
  | { readonly delayMs: number }
  /** Hold the timeline until the test resolves this promise. */
  | { readonly waitFor: Promise<unknown> }
  /** Send nothing more and keep the connection open until the client leaves. */
  | { readonly stall: true }
  /** Destroy the socket (a reset, as far as the client can tell). */
  | { readonly reset: true };

export interface UpstreamScript {
  /** Default 200. */
  readonly status?: number;
  /** Default `content-type: text/event-stream`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Destroy the socket as soon as the request body has arrived, before any header. */
  readonly resetBeforeHeaders?: boolean;
  /** Played after the headers (an endless iterable plays forever); the response ends after the last step unless a step stalls or resets. */
  readonly steps?: Iterable<UpstreamStep>;
}

export interface SocketClosed {
  /** `performance.now()` when the response's socket closed. */
  readonly at: number;
  /** Whether the server had finished writing the response when it closed. */
  readonly finished: boolean;
}

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
  readonly arrivedAt: number;
  readonly closed: Promise<SocketClosed>;
}

export interface ScriptedUpstream {
  /** `http://127.0.0.1:<port>/v1` */
  readonly baseUrl: string;
  readonly requests: readonly RecordedRequest[];
  /** Resolves when the `index`th request (from 0) has arrived with its body. */
  request(index: number): Promise<RecordedRequest>;
  /** Drops the requests recorded so far (memory checks over thousands of runs weigh rxgate, not this record); indexes and scripts count from here again. */
  forgetRequests(): void;
  close(): Promise<void>;
}

/** Builders for the frames of an OpenAI chat completions stream. */
export const frames = {
  text: (content: string): UpstreamStep => ({ chunk: chunk({ content }) }),
  reasoning: (reasoning_content: string): UpstreamStep => ({ chunk: chunk({ reasoning_content }) }),
  /** A piece of OpenAI's refusal, which comes in place of content. */
  refusal: (refusal: string): UpstreamStep => ({ chunk: chunk({ content: null, refusal }) }),
  role: (): UpstreamStep => ({ chunk: chunk({ role: 'assistant', content: '' }) }),
  toolCallStart: (index: number, id: string, name: string): UpstreamStep => ({
    chunk: chunk({ tool_calls: [{ index, id, type: 'function', function: { name, arguments: '' } }] }),
  }),
  toolCallArguments: (index: number, fragment: string): UpstreamStep => ({
    chunk: chunk({ tool_calls: [{ index, function: { arguments: fragment } }] }),
  }),
  finish: (reason: string): UpstreamStep => ({ chunk: { ...chunk({}), choices: [{ index: 0, delta: {}, finish_reason: reason }] } }),
  /** The usage chunk; `details` are more fields of its `usage` (`prompt_tokens_details`, say). */
  usage: (prompt: number, completion: number, details: Record<string, unknown> = {}): UpstreamStep => ({
    chunk: {
      id: 'chatcmpl-up',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'up',
      choices: [],
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, ...details },
    },
  }),
  done: (): UpstreamStep => ({ data: '[DONE]' }),
};

function chunk(delta: Record<string, unknown>): Record<string, unknown> {
  return {
    id: 'chatcmpl-up',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'up',
    choices: [{ index: 0, delta, finish_reason: null }],
  };
}

/** A plain text answer, finished and terminated as a well-behaved upstream sends it. */
export function answer(...texts: string[]): UpstreamScript {
  return { steps: [frames.role(), ...texts.map(frames.text), frames.finish('stop'), frames.usage(10, texts.length), frames.done()] };
}

/**
 * A model call that asks for `current_time` (UTC) and `calculator` (6*7) at once, their argument
 * fragments interleaved, optionally after some reasoning.
 */
export function parallelToolCalls({ reasoning }: { reasoning?: string } = {}): UpstreamScript {
  return {
    steps: [
      frames.role(),
      ...(reasoning ? [frames.reasoning(reasoning)] : []),
      frames.toolCallStart(0, 'call_time', 'current_time'),
      frames.toolCallStart(1, 'call_calc', 'calculator'),
      frames.toolCallArguments(0, '{"timezone":'),
      frames.toolCallArguments(1, '{"expression":"6*'),
      frames.toolCallArguments(0, '"UTC"}'),
      frames.toolCallArguments(1, '7"}'),
      frames.finish('tool_calls'),
      frames.usage(20, 5),
      frames.done(),
    ],
  };
}

/** One tool call of a scripted model call: its arguments arrive in these fragments. */
export interface ScriptedToolCall {
  readonly id: string;
  readonly name: string;
  readonly fragments: readonly string[];
}

/**
 * A model call that asks for these tools at once, as OpenAI streams it: each call's first
 * fragment (index, id, name), then the argument fragments of all the calls interleaved, round
 * robin, then finish `tool_calls` and usage.
 */
export function toolCalls(...calls: readonly ScriptedToolCall[]): UpstreamScript {
  const rounds = Math.max(0, ...calls.map((call) => call.fragments.length));
  const fragments = Array.from({ length: rounds }, (_, round) =>
    calls.flatMap((call, index) => (round < call.fragments.length ? [frames.toolCallArguments(index, call.fragments[round]!)] : [])),
  ).flat();
  return {
    steps: [
      frames.role(),
      ...calls.map((call, index) => frames.toolCallStart(index, call.id, call.name)),
      ...fragments,
      frames.finish('tool_calls'),
      frames.usage(20, 5),
      frames.done(),
    ],
  };
}

/** An answer (or its reasoning) that never ends: `delta` after `delta`, as fast as the client reads them. */
export function endlessAnswer(delta: string, { reasoning = false } = {}): UpstreamScript {
  function* steps(): Generator<UpstreamStep> {
    yield frames.role();
    const text = reasoning ? frames.reasoning(delta) : frames.text(delta);
    // A turn of the event loop now and then, so that the gateway in the same process gets to read.
    for (let i = 1; ; i++) yield i % 64 === 0 ? { delayMs: 0 } : text;
  }
  return { steps: { [Symbol.iterator]: steps } };
}

/** Resolves when the client has read what it was behind by, or left. */
function drained(res: ServerResponse): Promise<void> {
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

async function play(res: ServerResponse, steps: Iterable<UpstreamStep>): Promise<void> {
  for (const step of steps) {
    if (res.destroyed) return;
    let written = true;
    if ('chunk' in step) written = res.write(`data: ${JSON.stringify(step.chunk)}\n\n`);
    else if ('data' in step) written = res.write(`data: ${step.data}\n\n`);
    else if ('raw' in step) written = res.write(step.raw);
    else if ('delayMs' in step) await new Promise((resolve) => setTimeout(resolve, step.delayMs));
    else if ('waitFor' in step) await step.waitFor;
    else if ('stall' in step) return;
    else {
      res.socket?.destroy();
      return;
    }
    // An endless script must not outrun a client that reads slowly.
    if (!written) await drained(res);
  }
  res.end();
}

/**
 * A real OpenAI-compatible upstream on 127.0.0.1, port 0, that answers the nth request with the
 * nth script (the last script repeats), records every request, and reports when each request's
 * socket closed: the evidence that an interrupted run really stopped its upstream.
 */
export async function createScriptedUpstream(scripts: readonly UpstreamScript[]): Promise<ScriptedUpstream> {
  const requests: RecordedRequest[] = [];
  const waiters = new Map<number, (request: RecordedRequest) => void>();
  const server: Server = createServer((req, res) => {
    const index = requests.length;
    const closed = new Promise<SocketClosed>((resolve) => {
      res.once('close', () => resolve({ at: performance.now(), finished: res.writableFinished }));
    });
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      const request: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
        arrivedAt: performance.now(),
        closed,
      };
      requests.push(request);
      waiters.get(index)?.(request);
      const script = scripts[Math.min(index, scripts.length - 1)] ?? {};
      if (script.resetBeforeHeaders) {
        req.socket.destroy();
        return;
      }
      res.writeHead(script.status ?? 200, { 'content-type': 'text/event-stream', ...script.headers });
      res.flushHeaders();
      void play(res, script.steps ?? []);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    request(index) {
      const arrived = requests[index];
      return arrived ? Promise.resolve(arrived) : new Promise((resolve) => waiters.set(index, resolve));
    },
    forgetRequests() {
      requests.length = 0;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A base URL on which nothing listens: a port that was just free. */
export async function unusedBaseUrl(): Promise<string> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return `http://127.0.0.1:${port}/v1`;
}
