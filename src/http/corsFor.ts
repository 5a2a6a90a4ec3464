import cors from 'cors';

const EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-Rxgate-Upstream',
  'X-Should-Retry',
  'Retry-After',
  'Idempotency-Replayed',
  'X-Rxgate-Ignored-Tools',
];

/** CORS for `origins` (`*`: any), with the headers rxgate reads and exposes; the preflight is left to a route. */
export function corsFor(origins: readonly string[]) {
  return cors({
    origin: origins.includes('*') ? '*' : [...origins],
    methods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'X-Request-Id',
      'Idempotency-Key',
      'Last-Event-ID',
      'OpenAI-Organization',
      'OpenAI-Project',
    ],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
    // The preflight is answered by a route of its own (createApp's), so that it is logged and counted like any request.
    preflightContinue: true,
  });
}
