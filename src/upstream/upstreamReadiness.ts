import type { ReadinessCheck } from '../health/readiness.js';

export interface UpstreamReadinessOptions {
  readonly baseUrl: string;
  readonly apiKey?: string;
  /** How long one answer is trusted. Default 5 s, so a busy readiness probe costs the upstream little. */
  readonly cacheMs?: number;
  readonly timeoutMs?: number;
}

/** Ready when the upstream answers `GET /models` with anything but a 5xx, checked at most once per `cacheMs`. */
export function upstreamReadiness({ baseUrl, apiKey, cacheMs = 5000, timeoutMs = 2000 }: UpstreamReadinessOptions): ReadinessCheck {
  let cached: { at: number; result: Promise<string | undefined> } | undefined;
  const probe = async (): Promise<string | undefined> => {
    try {
      const response = await fetch(`${baseUrl.replace(/\/$/, '')}/models`, {
        headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      return response.status >= 500 ? `upstream answered ${response.status}` : undefined;
    } catch (error) {
      return `upstream unreachable (${(error as Error).name === 'TimeoutError' ? 'timed out' : 'connection failed'})`;
    }
  };
  return {
    name: 'upstream',
    check: () => {
      const now = Date.now();
      if (!cached || now - cached.at > cacheMs) cached = { at: now, result: probe() };
      return cached.result;
    },
  };
}
