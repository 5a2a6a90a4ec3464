import { readdirSync, readFileSync } from 'node:fs';

/** CPU time a process has used so far, in ns. */
export interface CpuNanos {
  /** Its main thread's: JavaScript, the event loop, the system calls it makes. */
  readonly mainThread: number;
  /** All its threads' (V8's compilers and garbage collector helpers too). */
  readonly allThreads: number;
}

/** A thread's CPU time so far in ns, or 0 when it has ended: the first field of its `schedstat`. */
function threadNanos(pid: number, tid: string): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'latin1').split(' ', 1)[0]);
  } catch {
    return 0;
  }
}

/**
 * The CPU time process `pid` has used so far, from the scheduler's own account in ns
 * (`/proc/<pid>/task/<tid>/schedstat`), where `/proc/<pid>/stat` counts 10 ms ticks: too coarse
 * for one stream. A thread that ends between the listing and the read is left out.
 */
export function cpuNanos(pid: number): CpuNanos {
  let allThreads = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) allThreads += threadNanos(pid, tid);
  return { mainThread: threadNanos(pid, String(pid)), allThreads };
}
