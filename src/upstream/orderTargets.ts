import type { Balance } from './routes.js';

export interface Weighed {
  readonly weight: number;
  readonly inFlight: number;
}

/**
 * The order in which a route's targets are tried: as listed (`ordered`), a random order drawn by
 * weight (`weighted`: the first is each target with probability weight / total), or the fewest
 * calls open first (`least-in-flight`, ties as listed).
 */
export function orderTargets<T extends Weighed>(targets: readonly T[], balance: Balance, random: () => number = Math.random): T[] {
  if (balance === 'least-in-flight') return [...targets].sort((a, b) => a.inFlight - b.inFlight);
  if (balance === 'ordered') return [...targets];
  const left = [...targets];
  const order: T[] = [];
  while (left.length > 0) {
    let draw = random() * left.reduce((sum, target) => sum + target.weight, 0);
    const index = Math.max(
      0,
      left.findIndex((target) => (draw -= target.weight) < 0),
    );
    order.push(...left.splice(index, 1));
  }
  return order;
}
