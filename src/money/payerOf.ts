import type { Principal } from '../principal.js';
import type { Payer } from './Payer.js';

/** Whom a request's model calls are spent for: its key, with the budget the key has now, and what they are for. */
export const payerOf = ({ id, policy }: Principal, reference: string): Payer =>
  policy?.budget ? { key: id, reference, budget: policy.budget } : { key: id, reference };
