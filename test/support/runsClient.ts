import { expect } from 'vitest';

/** `POST url` with `body` as JSON (no body if undefined). */
export const post = (url: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });

/** `POST /v1/runs/{id}/approval` with `answer` (`approval_id`, `choice`, `reason`), sent as request `requestId` if given. */
export const answerApproval = (url: string, runId: string, answer: Record<string, unknown>, requestId?: string) =>
  post(`${url}/v1/runs/${runId}/approval`, answer, requestId === undefined ? {} : { 'X-Request-Id': requestId });

/** Starts a run of `input` on the gateway at `url` (answered 202) and returns its id. */
export async function createRun(url: string, input = 'hi'): Promise<string> {
  const response = await post(`${url}/v1/runs`, { input });
  expect(response.status).toBe(202);
  return ((await response.json()) as { run_id: string }).run_id;
}
