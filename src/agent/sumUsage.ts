import { roundUsd } from '../money/usd.js';
import type { Usage } from './agentEvent.js';

export const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

/** A detail's sum, absent when neither side knows it. */
const sumKnown = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);

export function sumUsage(a: Usage, b: Usage): Usage {
  const cachedInputTokens = sumKnown(a.cachedInputTokens, b.cachedInputTokens);
  const reasoningTokens = sumKnown(a.reasoningTokens, b.reasoningTokens);
  const costUsd = sumKnown(a.costUsd, b.costUsd);
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
    ...(reasoningTokens === undefined ? {} : { reasoningTokens }),
    ...(costUsd === undefined ? {} : { costUsd: roundUsd(costUsd) }),
    ...(a.costEstimated || b.costEstimated ? { costEstimated: true } : {}),
  };
}
