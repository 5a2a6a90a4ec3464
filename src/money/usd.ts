/** USD with twelve decimals: sums of per-token prices stay free of binary noise (0.30000000000000004). */
export const roundUsd = (usd: number): number => Math.round(usd * 1e12) / 1e12;

/** USD as a plain decimal for a header: `0.0000001`, never `1e-7`. */
export const usdText = (usd: number): string => usd.toFixed(12).replace(/\.?0+$/, '');
