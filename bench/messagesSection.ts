import type { MessagesCostApi, MessagesCostRow } from './messagesCost.js';
import { fixed } from './stats.js';

/** The Messages figure of BENCHMARKS.md (issue 45): CPU per streaming Messages request beside a chat completion's, in one process. */
export function messagesSection(rows: readonly MessagesCostRow[]): string {
  const cpu = (api: MessagesCostApi) => rows.find((row) => row.api === api)?.cpuMicrosPerRequest ?? Number.NaN;
  return [
    '### Anthropic Messages beside chat completions',
    '',
    "One rxgate process answers the same streaming 8-delta answer through `POST /v1/chat/completions` and through `POST /v1/messages` (a bare request: no tools, no system prompt), sequential requests, in rounds that alternate between the two APIs, each starting with the other one; CPU is the process's user and system time per request, the median of the rounds. " +
      `A Messages request costs ${fixed(cpu('messages') / cpu('chat completions'), 2)}× a chat completion's CPU (goal: within 1.2×): its input tokens are counted first (gpt-tokenizer), its events are blocks with their start and stop frames, each frame carries its \`event:\` line.`,
    '',
    '| API | Requests a round | Rounds | CPU µs per request |',
    '| --- | ---: | ---: | ---: |',
    ...rows.map((row) => `| ${row.api} | ${row.requests} | ${row.rounds.length} | ${fixed(row.cpuMicrosPerRequest, 1)} |`),
  ].join('\n');
}
