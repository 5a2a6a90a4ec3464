import { pino, type Logger } from 'pino';

/** A real pino logger whose JSON lines are kept (parsed, in a live array) for assertions. */
export function captureLogger(): { logger: Logger; lines: Record<string, unknown>[]; text: () => string } {
  const raw: string[] = [];
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'debug' },
    {
      write: (line: string) => {
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  );
  return { logger, lines, text: () => raw.join('') };
}
