/** Anthropic's smallest thinking budget. */
const MIN_BUDGET = 1024;

/** The thinking budget of each OpenAI reasoning effort that asks for thinking; `none` and `minimal` ask for none. */
const BUDGETS: Readonly<Record<string, number>> = { low: 1024, medium: 8192, high: 24_576, xhigh: 32_768 };

/**
 * A reasoning effort as Messages `thinking`: enabled, with the effort's budget lowered below
 * `max_tokens` (Anthropic's rule); none when the effort asks for none, is unknown, or when
 * `max_tokens` leaves no room for the smallest budget.
 */
export function toThinking(effort: unknown, maxTokens: number): { readonly type: 'enabled'; readonly budget_tokens: number } | undefined {
  const budget = typeof effort === 'string' ? BUDGETS[effort] : undefined;
  if (budget === undefined || maxTokens <= MIN_BUDGET) return undefined;
  return { type: 'enabled', budget_tokens: Math.min(budget, maxTokens - 1) };
}
