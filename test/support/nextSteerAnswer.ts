import { vi } from 'vitest';
import { RunInputs } from '../../src/detached/RunInputs.js';

/** Resolves with what the next `RunInputs.steer` (of any run in this process) answered, in the turn it answered it. */
export function nextSteerAnswer(): Promise<boolean> {
  const steer = RunInputs.prototype.steer;
  return new Promise((resolve) => {
    const spy = vi.spyOn(RunInputs.prototype, 'steer').mockImplementation(function (this: RunInputs, input: string) {
      spy.mockRestore();
      const taken = steer.call(this, input);
      resolve(taken);
      return taken;
    });
  });
}
