import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from './errors/ConfigError.js';
import type { PipelineOperators } from './pipeline/pipelineOperators.js';

const isOperatorList = (value: unknown) =>
  value === undefined || (Array.isArray(value) && value.every((item) => typeof item === 'function'));

/**
 * The packaged server's extension point: an ES module (`RXGATE_OPERATORS_MODULE`) whose default
 * export is `{ events?: EventOperator[], chunks?: ChunkOperator[] }`.
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
  if (typeof operators !== 'object' || operators === null || !isOperatorList(operators.events) || !isOperatorList(operators.chunks)) {
    throw new ConfigError(
      `RXGATE_OPERATORS_MODULE: ${path} must export default { events?: [...], chunks?: [...] }, arrays of operator factories`,
    );
  }
  return operators;
}
