/** Whole picodollars: what budgets and the Redis ledger sum, where floating-point USD would gather binary noise. */
export const PICO_PER_USD = 1e12;

export const toPico = (usd: number): number => Math.round(usd * PICO_PER_USD);

export const fromPico = (pico: number): number => pico / PICO_PER_USD;
