import type { Writable } from 'node:stream';

/**
 * Resolves once the writes handed to `sink` in this turn have gone out and the sink has drained
 * (or closed): the moment a producer that pages its output may hand over the next page.
 */
export function drained(sink: Pick<Writable, 'writableNeedDrain' | 'destroyed' | 'once' | 'off'>): Promise<void> {
  return new Promise((resolve) =>
    setImmediate(() => {
      if (!sink.writableNeedDrain || sink.destroyed) return resolve();
      const done = () => {
        sink.off('drain', done);
        sink.off('close', done);
        resolve();
      };
      sink.once('drain', done);
      sink.once('close', done);
    }),
  );
}
