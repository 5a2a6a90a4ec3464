export { coalesce, type CoalesceOptions } from './coalesce.js';
export { deadline, type DeadlineOptions } from './deadline.js';
export { maxOutput, type MaxOutputOptions } from './maxOutput.js';
export { measure, type MeasureOptions, type StreamMetrics } from './measure.js';
export { rateLimit, type RateLimitOptions } from './rateLimit.js';
export { applyOperators } from '../pipeline/applyOperators.js';
export { composeOperators } from '../pipeline/composeOperators.js';
export type { ChunkOperator, EventOperator, PipelineContext, PipelineOperators } from '../chat/pipelineOperators.js';
export { DeadlineError, type DeadlineErrorCode } from '../errors/DeadlineError.js';
