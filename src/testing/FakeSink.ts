import { EventEmitter } from 'node:events';
import type { SchedulerLike } from 'rxjs';
import type { SseSink } from '../sse/sseSink.js';

export interface FakeSinkScript {
  /** Writes accepted before `write` starts returning false (the client stopped reading). */
  readonly acceptWrites?: number;
  /** From this frame on, every write fails with this error code (EPIPE, ECONNRESET). */
  readonly failFrom?: { readonly frame: number; readonly code: string };
}

const utf8 = new TextDecoder();

/** A response stand-in in virtual time: records what was written and when, and can stall or break. */
export class FakeSink extends EventEmitter implements SseSink {
  readonly writes: { frame: number; chunk: string }[] = [];
  private acceptWrites: number;

  constructor(
    private readonly scheduler: SchedulerLike,
    private readonly script: FakeSinkScript = {},
  ) {
    super();
    this.acceptWrites = script.acceptWrites ?? Infinity;
  }

  write(chunk: string | Uint8Array, callback: (error?: Error | null) => void): boolean {
    const frame = this.scheduler.now();
    this.writes.push({ frame, chunk: typeof chunk === 'string' ? chunk : utf8.decode(chunk) });
    const { failFrom } = this.script;
    const error = failFrom && frame >= failFrom.frame ? Object.assign(new Error(`write ${failFrom.code}`), { code: failFrom.code }) : null;
    // Node reports a failed write asynchronously; a zero-delay action lands in the same frame.
    this.scheduler.schedule(() => callback(error));
    return this.writes.length < this.acceptWrites;
  }

  /** The client read everything it was sent, and reads on from now. */
  drain(): void {
    this.acceptWrites = Infinity;
    this.emit('drain');
  }
}
