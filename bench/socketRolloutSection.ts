import type { RolloutTransport, SocketRolloutRow } from './socketRollout.js';
import { fixed, kib } from './stats.js';

/** The WebSocket figure of BENCHMARKS.md (issue 46): a 20-turn tool-call rollout over SSE and over WebSocket, side by side. */
export function socketRolloutSection(rows: readonly SocketRolloutRow[]): string {
  const row = (transport: RolloutTransport) => rows.find((found) => found.transport === transport);
  const sse = row('sse');
  const socket = row('websocket');
  const ratio = (of: (found: SocketRolloutRow) => number) => (sse && socket ? fixed(of(socket) / of(sse), 2) : 'n/a');
  return [
    '### A 20-turn tool-call rollout over SSE and over WebSocket',
    '',
    'One rxgate process runs the same rollout, as Codex does with `store: false`: 19 turns whose answer is one call of a client tool, then an answer of 8 deltas; every turn carries 12 KB of instructions and the tool, and each tool output about 2 KB. ' +
      'Over SSE every turn is a `POST /v1/responses` with the whole conversation so far; over WebSocket one connection (opened within the rollout) sends each turn its new output and the `previous_response_id` of the last, which the connection remembers. ' +
      "Rounds alternate between the two, each starting with the other; time and CPU (the process's user and system time) are medians of the rounds. " +
      `Over WebSocket the client sends ${ratio((found) => found.bytesSent)}× the bytes, in ${ratio((found) => found.msPerRollout)}× the time, for ${ratio((found) => found.cpuMicrosPerRollout)}× the gateway's CPU.`,
    '',
    '| Transport | Turns | Rounds | Bytes sent a rollout | ms a rollout | CPU ms a rollout |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (found) =>
        `| ${found.transport === 'sse' ? 'SSE, whole input' : 'WebSocket, new input'} | ${found.turns} | ${found.rounds} | ${kib(found.bytesSent)} KiB | ${fixed(found.msPerRollout, 1)} | ${fixed(found.cpuMicrosPerRollout / 1000, 1)} |`,
    ),
  ].join('\n');
}
