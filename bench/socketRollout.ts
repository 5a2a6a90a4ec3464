import { once } from 'node:events';
import { request, type Agent } from 'undici';
import { WebSocket } from 'ws';
import type { Scenario } from './benchUpstream.js';
import { launchGateway } from './launchGateway.js';
import type { BenchUpstream } from './launchUpstream.js';
import { median } from './stats.js';

/** How a rollout reached rxgate: `POST /v1/responses` over SSE with the whole input each turn, or one WebSocket with each turn's new input. */
export type RolloutTransport = 'sse' | 'websocket';

export interface SocketRolloutRow {
  readonly transport: RolloutTransport;
  /** Turns of one rollout: tool calls, then the answer. */
  readonly turns: number;
  /** What the client sent over a whole rollout: request bodies, or message payloads. */
  readonly bytesSent: number;
  /** Wall time of one rollout, in ms (the connection opened included): the median of the rounds. */
  readonly msPerRollout: number;
  /** The gateway process's CPU time per rollout, in µs: the median of the rounds. */
  readonly cpuMicrosPerRollout: number;
  readonly rounds: number;
}

const TURNS = 20;
/** About what Codex sends as instructions and tools every turn, whatever the transport. */
const INSTRUCTIONS = 'You are a coding agent. '.repeat(500);
const TOOLS = [
  { type: 'function', name: 'lookup', description: 'Looks a thing up', parameters: { type: 'object', properties: {} }, strict: false },
];
/** What a tool's output carries besides the next turn's scenario: a command's output, say. */
const OUTPUT_PADDING = 'x'.repeat(2_000);

/** What the upstream answers turn `turn` (from 1) with, as the text of the input that asks for it. */
function scenarioOf(turn: number): string {
  const scenario: Scenario =
    turn < TURNS
      ? { deltas: 0, everyMs: 0, toolCall: { name: 'lookup', callId: `call_${turn}` } }
      : { deltas: 8, everyMs: 0, text: 'Done ' };
  return JSON.stringify({ ...scenario, padding: OUTPUT_PADDING });
}

const firstInput = () => [{ type: 'message', role: 'user', content: scenarioOf(1) }];
/** The items turn `turn` (from 2) adds: the call the model made the turn before, and its output. */
const itemsOf = (turn: number) => [
  { type: 'function_call', call_id: `call_${turn - 1}`, name: 'lookup', arguments: '{}' },
  { type: 'function_call_output', call_id: `call_${turn - 1}`, output: scenarioOf(turn) },
];
const bodyOf = (input: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: 'bench', instructions: INSTRUCTIONS, tools: TOOLS, store: false, input, ...extra });

/** A rollout as Codex runs it over SSE with `store: false`: each turn a `POST` carrying the whole conversation so far. */
async function overSse(client: Agent, origin: string): Promise<number> {
  let bytes = 0;
  const input: unknown[] = firstInput();
  for (let turn = 1; turn <= TURNS; turn++) {
    if (turn > 1) input.push(...itemsOf(turn));
    const body = bodyOf(input, { stream: true });
    bytes += Buffer.byteLength(body);
    const response = await request(`${origin}/v1/responses`, {
      method: 'POST',
      dispatcher: client,
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await response.body.text();
    if (response.statusCode !== 200 || !text.includes('response.completed'))
      throw new Error(`turn ${turn} answered ${response.statusCode}`);
  }
  return bytes;
}

/** A rollout as Codex runs it over WebSocket: one connection, each turn its new items and the `previous_response_id` of the last. */
async function overSocket(origin: string): Promise<number> {
  const socket = new WebSocket(`${origin.replace(/^http/, 'ws')}/v1/responses`);
  await once(socket, 'open');
  const completed: string[] = [];
  let wake: () => void = () => undefined;
  socket.on('message', (data: Buffer) => {
    const event = JSON.parse(data.toString()) as { type: string; response?: { id: string } };
    if (event.type === 'error') throw new Error(`the gateway refused a turn: ${data.toString()}`);
    if (event.type === 'response.completed') {
      completed.push(event.response!.id);
      wake();
    }
  });
  let bytes = 0;
  for (let turn = 1; turn <= TURNS; turn++) {
    const message =
      turn === 1
        ? bodyOf(firstInput(), { type: 'response.create' })
        : bodyOf([itemsOf(turn)[1]], { type: 'response.create', previous_response_id: completed.at(-1) });
    bytes += Buffer.byteLength(message);
    const answered = new Promise<void>((resolve) => (wake = resolve));
    socket.send(message);
    await answered;
  }
  socket.close();
  await once(socket, 'close');
  return bytes;
}

/**
 * A 20-turn tool-call rollout (issue 46) over SSE (the whole input every turn, as Codex sends it
 * with `store: false`) and over WebSocket (each turn's new input, chained in the connection's
 * memory), against one rxgate process: the bytes the client sent, the wall time and the gateway's
 * CPU time per rollout, the rounds alternating between the two transports.
 */
export async function measureSocketRollout(
  client: Agent,
  upstream: BenchUpstream,
  { rounds }: { rounds: number },
): Promise<SocketRolloutRow[]> {
  const gateway = await launchGateway('rxgate', upstream.baseUrl);
  const transports: RolloutTransport[] = ['sse', 'websocket'];
  const samples = new Map(transports.map((transport) => [transport, { ms: [] as number[], cpu: [] as number[], bytes: 0 }]));
  const rollout = async (transport: RolloutTransport) => {
    const before = (await gateway.stats()).cpuMicros;
    const startedAt = performance.now();
    const bytes = transport === 'sse' ? await overSse(client, gateway.origin) : await overSocket(gateway.origin);
    return { ms: performance.now() - startedAt, cpu: (await gateway.stats()).cpuMicros - before, bytes };
  };
  for (const transport of transports) await rollout(transport);
  for (let r = 0; r < rounds; r++) {
    for (const transport of r % 2 === 0 ? transports : [...transports].reverse()) {
      const { ms, cpu, bytes } = await rollout(transport);
      const sample = samples.get(transport)!;
      sample.ms.push(ms);
      sample.cpu.push(cpu);
      sample.bytes = bytes;
    }
  }
  await gateway.stop();
  return transports.map((transport) => {
    const { ms, cpu, bytes } = samples.get(transport)!;
    return { transport, turns: TURNS, bytesSent: bytes, msPerRollout: median(ms), cpuMicrosPerRollout: median(cpu), rounds };
  });
}
