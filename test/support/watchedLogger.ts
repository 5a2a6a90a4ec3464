import { pino, type Logger } from 'pino';

export type LogLine = Record<string, unknown>;

/** A real pino logger (every level) whose lines are kept, and awaited by predicate. */
export function watchedLogger(): {
  logger: Logger;
  lines: LogLine[];
  text: () => string;
  next: (predicate: (line: LogLine) => boolean) => Promise<LogLine>;
} {
  const raw: string[] = [];
  const lines: LogLine[] = [];
  const waiters: { predicate: (line: LogLine) => boolean; resolve: (line: LogLine) => void }[] = [];
  const logger = pino(
    { level: 'trace' },
    {
      write: (text: string) => {
        raw.push(text);
        const line = JSON.parse(text) as LogLine;
        lines.push(line);
        for (const waiter of waiters.splice(0)) {
          if (waiter.predicate(line)) waiter.resolve(line);
          else waiters.push(waiter);
        }
      },
    },
  );
  return {
    logger,
    lines,
    text: () => raw.join(''),
    next: (predicate) => {
      const seen = lines.find(predicate);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
  };
}
