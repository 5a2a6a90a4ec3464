import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { VisitEvent } from './benchUpstream.js';

export interface UpstreamVisit {
  /** On `clock()`. */
  readonly arrivedAt: number;
  readonly closed: Promise<{ at: number; finished: boolean }>;
}

export interface BenchUpstream {
  /** `http://127.0.0.1:<port>/v1` */
  readonly baseUrl: string;
  /** Its process. */
  readonly pid: number;
  /** Resolves when the request with this scenario id has reached the upstream. */
  visit(id: string): Promise<UpstreamVisit>;
  /** Releases the streams held at the barrier `name` (`Scenario.hold`); resolves with how many were held and still open. */
  release(name: string): Promise<number>;
  /** Forgets a request nobody will ask about again. */
  forget(id: string): void;
  close(): Promise<void>;
}

interface Entry {
  arrived?: UpstreamVisit;
  onArrived?: (visit: UpstreamVisit) => void;
  onClosed?: (closed: { at: number; finished: boolean }) => void;
  closedEarly?: { at: number; finished: boolean };
}

/** Starts the bench upstream in its own process: a real remote for every target, the direct one included. */
export async function launchUpstream(): Promise<BenchUpstream> {
  const child = fork(fileURLToPath(new URL('./upstreamProcess.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [ready] = (await once(child, 'message')) as [{ type: 'ready'; port: number }];
  const entries = new Map<string, Entry>();
  const entry = (id: string) => {
    let found = entries.get(id);
    if (!found) entries.set(id, (found = {}));
    return found;
  };
  const releases = new Map<string, (open: number) => void>();
  child.on('message', (event: VisitEvent | { type: 'released'; name: string; open: number }) => {
    if (event.type === 'released') {
      releases.get(event.name)?.(event.open);
      releases.delete(event.name);
      return;
    }
    const found = entry(event.id);
    if (event.type === 'arrived') {
      const closed = new Promise<{ at: number; finished: boolean }>((resolve) => {
        if (found.closedEarly) resolve(found.closedEarly);
        else found.onClosed = resolve;
      });
      found.arrived = { arrivedAt: event.at, closed };
      found.onArrived?.(found.arrived);
    } else {
      const closed = { at: event.at, finished: event.finished };
      if (found.onClosed) found.onClosed(closed);
      else found.closedEarly = closed;
      // Nothing more will be said about this id.
      if (found.arrived) entries.delete(event.id);
    }
  });
  return {
    baseUrl: `http://127.0.0.1:${ready.port}/v1`,
    pid: child.pid!,
    visit(id) {
      const found = entry(id);
      return found.arrived ? Promise.resolve(found.arrived) : new Promise((resolve) => (found.onArrived = resolve));
    },
    release(name) {
      return new Promise((resolve) => {
        releases.set(name, resolve);
        child.send({ type: 'release', name });
      });
    },
    forget(id) {
      entries.delete(id);
    },
    async close() {
      const exited = once(child, 'exit');
      child.kill('SIGINT');
      await exited;
    },
  };
}
