import { setTimeout as delay } from 'node:timers/promises';
import type { Agent, AgentRequest } from '../../src/agent/agent.js';
import type { AgentEvent } from '../../src/agent/agentEvent.js';
import { createRun } from '../../src/agent/createRun.js';
import type { InterruptReason } from '../../src/agent/interruptReason.js';

/** One step of a scripted run: wait, then emit; or stay silent until cancelled; or fail. */
export type ScriptStep =
  { readonly after?: number; readonly event: AgentEvent } | { readonly silent: true } | { readonly after?: number; readonly fail: Error };

export interface RunRecord {
  readonly request: AgentRequest;
  readonly interrupts: { reason: InterruptReason; at: number }[];
  abortedAt?: number;
  /** Resolves at the run's first interrupt. */
  readonly interrupted: Promise<{ reason: InterruptReason; at: number }>;
}

/** A test double agent: plays a script per run and records how each run ended. */
export class ScriptedAgent implements Agent {
  readonly description = 'scripted test agent';
  readonly runs: RunRecord[] = [];

  constructor(private readonly script: readonly ScriptStep[]) {}

  run(request: AgentRequest, cancellation: Parameters<Agent['run']>[1]) {
    const script = this.script;
    return createRun(cancellation, (signal) => {
      let resolveInterrupted!: (value: { reason: InterruptReason; at: number }) => void;
      const record: RunRecord = { request, interrupts: [], interrupted: new Promise((resolve) => (resolveInterrupted = resolve)) };
      this.runs.push(record);
      signal.addEventListener('abort', () => (record.abortedAt = performance.now()));
      async function* play(): AsyncGenerator<AgentEvent> {
        for (const step of script) {
          if ('silent' in step) {
            await new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
            continue;
          }
          if (step.after) await delay(step.after, undefined, { signal });
          if ('fail' in step) throw step.fail;
          yield step.event;
        }
      }
      return {
        events: play(),
        interrupt: (reason) => {
          const entry = { reason, at: performance.now() };
          record.interrupts.push(entry);
          resolveInterrupted(entry);
        },
      };
    });
  }
}

export const say = (text: string, after?: number): ScriptStep => ({ after, event: { type: 'text', delta: text } });
export const finish = (after?: number): ScriptStep => ({ after, event: { type: 'finish', reason: 'stop' } });
export const usage = (inputTokens: number, outputTokens: number): ScriptStep => ({
  event: { type: 'usage', usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens } },
});
