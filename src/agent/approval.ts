import type { Observable } from 'rxjs';

/** What a person may answer to a call that waits for approval. */
export const APPROVAL_CHOICES = ['once', 'always', 'deny'] as const;

/** `once` runs this call, `always` also every later call of the same tool in the run, `deny` refuses it. */
export type ApprovalChoice = (typeof APPROVAL_CHOICES)[number];

/** Who resolved an approval: a person through the API, or the clock. */
export type ApprovalResolver = 'api' | 'timeout';

/** A person's answer to one approval (or the timeout's, which denies). */
export interface ApprovalAnswer {
  readonly approvalId: string;
  readonly choice: ApprovalChoice;
  readonly reason?: string;
  readonly by: ApprovalResolver;
  /** The id of the HTTP request that carried the answer, if one did. */
  readonly requestId?: string;
}

/**
 * How the calls of tools that need approval get it in one run.
 *
 * - `wait` (the Runs API): each such call emits `approval_required` and waits for its answer on
 *   `answers$` (hot), or for `timeoutMs`, which denies it.
 * - `end` (the Responses API): a model turn with such a call that `decided` has no answer for runs
 *   none of its calls; the run emits `approval_required` for each and finishes, and the client
 *   answers in its next request, which resumes the turn with `decided` (by call id).
 *
 * A request with no `approvals` (Chat Completions) is not offered the tools that need approval.
 */
export type Approvals =
  | { readonly mode: 'wait'; readonly answers$: Observable<ApprovalAnswer>; readonly timeoutMs: number }
  | { readonly mode: 'end'; readonly decided: ReadonlyMap<string, ApprovalAnswer> };
