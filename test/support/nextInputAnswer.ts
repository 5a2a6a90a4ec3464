import { vi } from 'vitest';
import { RunInputs } from '../../src/detached/RunInputs.js';

/**
 * Resolves with what the next `RunInputs.steer` or `RunInputs.answer` (of any run in this process)
 * answered, in the turn it answered it: the moment a person's input reached the run, without a sleep.
 */
export function nextInputAnswer<M extends 'steer' | 'answer'>(method: M): Promise<ReturnType<RunInputs[M]>> {
  const original = RunInputs.prototype[method] as (this: RunInputs, ...args: unknown[]) => ReturnType<RunInputs[M]>;
  return new Promise((resolve) => {
    const spy = vi.spyOn(RunInputs.prototype, method).mockImplementation(function (this: RunInputs, ...args: unknown[]) {
      spy.mockRestore();
      const answered = original.apply(this, args);
      resolve(answered);
      return answered;
    } as never);
  });
}
