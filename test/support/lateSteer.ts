import { expect } from 'vitest';
import { nextInputAnswer } from './nextInputAnswer.js';
import { post } from './runsClient.js';
import { frames, type UpstreamScript } from './scriptedUpstream.js';

/** The one model call `maxIterations: 1` allows, streaming until `finish()`: meanwhile no model call would take a steer. */
export function heldLastCall(): { readonly script: UpstreamScript; readonly finish: () => void } {
  let finish!: () => void;
  const answering = new Promise<void>((resolve) => (finish = resolve));
  return { script: { steps: [frames.role(), frames.text('Done.'), { waitFor: answering }, frames.finish('stop'), frames.done()] }, finish };
}

/**
 * Steers run `runId` through `url` while `lastCall` streams: the run refuses the steer, and once
 * the call (and with it the run) has ended, the steer is answered 409 `run_not_running` with the final status.
 */
export async function expectLateSteerRefused(url: string, runId: string, lastCall: { finish(): void }): Promise<void> {
  const refused = nextInputAnswer('steer');
  const late = post(`${url}/v1/runs/${runId}/steer`, { input: 'too late' });
  expect(await refused).toBe(false);
  lastCall.finish();
  const answered = await late;
  expect(answered.status).toBe(409);
  expect(await answered.json()).toMatchObject({ error: { code: 'run_not_running', message: expect.stringContaining('status completed') } });
}
