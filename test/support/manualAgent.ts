import { Subject } from 'rxjs';
import type { Agent, AgentRequest } from '../../src/agent/agent.js';
import type { AgentEvent } from '../../src/agent/agentEvent.js';
import type { Cancellation } from '../../src/agent/cancellation.js';
import { createRun } from '../../src/agent/createRun.js';
import type { InterruptReason } from '../../src/agent/interruptReason.js';

export interface ManualRun {
  readonly request: AgentRequest;
  /** The test emits the run's events, completes or fails it, through this. */
  readonly events: Subject<AgentEvent>;
  readonly interrupts: InterruptReason[];
}

/** A test double agent whose runs the test drives event by event; `started(i)` resolves when run i began. */
export class ManualAgent implements Agent {
  readonly description = 'manual test agent';
  readonly runs: ManualRun[] = [];
  readonly #waiting = new Map<number, (run: ManualRun) => void>();

  /** `serverToolNames`: the tools it claims to run itself. Default: none. */
  constructor(readonly serverToolNames: readonly string[] = []) {}

  run(request: AgentRequest, cancellation: Cancellation) {
    return createRun(cancellation, () => {
      const run: ManualRun = { request, events: new Subject<AgentEvent>(), interrupts: [] };
      this.runs.push(run);
      this.#waiting.get(this.runs.length - 1)?.(run);
      return { events: run.events, interrupt: (reason) => run.interrupts.push(reason) };
    });
  }

  started(index: number): Promise<ManualRun> {
    const run = this.runs[index];
    return run ? Promise.resolve(run) : new Promise((resolve) => this.#waiting.set(index, resolve));
  }
}
