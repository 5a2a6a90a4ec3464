export { coalesce, type CoalesceOptions } from './coalesce.js';
export { deadline, type DeadlineOptions } from './deadline.js';
export { maxOutput, type MaxOutputOptions } from './maxOutput.js';
export { measure, type MeasureOptions, type StreamMetrics } from './measure.js';
export { rateLimit, type RateLimitOptions } from './rateLimit.js';
