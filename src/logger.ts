import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs; secrets are redacted wherever they might be attached. */
export function createLogger(level: string = 'info'): Logger {
  return pino({
    level,
    base: { service: 'rxgate' },
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'apiKey', '*.apiKey'],
      censor: '[redacted]',
    },
  });
}

export const silentLogger: Logger = pino({ level: 'silent' });
