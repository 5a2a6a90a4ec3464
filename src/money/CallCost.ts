/** What one model call cost, and how rxgate knows. */
export interface CallCost {
  /** USD; 0 for a call with no price. */
  readonly usd: number;
  /** Whether a price was found for the call's model: an unpriced call costs nothing, and is counted (`rxgate_unpriced_calls_total`). */
  readonly priced: boolean;
  /** Whether its tokens were counted by rxgate's tokenizer, its upstream having reported no usage (a stream cut or cancelled before it). */
  readonly estimated: boolean;
}
