import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from './errors/ConfigError.js';
import type { PipelineOperators } from './http/pipelineOperators.js';

const isOperatorList = (value: unknown) =>
  value === undefined || (Array.isArray(value) && value.every((item) => typeof item === 'function'));

/**
 * The packaged server's extension point: an ES module (`RXGATE_OPERATORS_MODULE`) whose default
 * export is a `PipelineOperators`: `{ events?, chunks?, responseEvents?, runEvents?, messageEvents? }`, each an array of operator factories.
 */
export async function loadOperatorsModule(path: string | undefined): Promise<PipelineOperators> {
  if (!path) return {};
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(resolve(path)).href)) as { default?: unknown };
  } catch (error) {
    throw new ConfigError(`RXGATE_OPERATORS_MODULE: cannot import ${path}: ${(error as Error).message}`);
  }
  const operators = loaded.default as PipelineOperators | undefined;
  const lists = ['events', 'chunks', 'responseEvents', 'runEvents', 'messageEvents'] as const;
  if (typeof operators !== 'object' || operators === null || !lists.every((list) => isOperatorList(operators[list]))) {
    throw new ConfigError(
      `RXGATE_OPERATORS_MODULE: ${path} must export default { events?: [...], chunks?: [...], responseEvents?: [...], runEvents?: [...], messageEvents?: [...] }, arrays of operator factories`,
    );
  }
  return operators;
}
