import { z } from 'zod';
import { APPROVAL_CHOICES, type ApprovalChoice } from '../agent/approval.js';
import { assertObjectBody, invalidRequest } from '../errors/invalidRequest.js';

const MAX_REASON_CHARS = 4_096;

const approvalRequestSchema = z.object({
  approval_id: z.string({ error: 'approval_id must be a string' }).min(1, 'approval_id must not be empty').max(256),
  choice: z.enum(APPROVAL_CHOICES, { error: `choice must be one of ${APPROVAL_CHOICES.map((choice) => `"${choice}"`).join(', ')}` }),
  reason: z.string({ error: 'reason must be a string' }).max(MAX_REASON_CHARS).nullable().optional(),
});

export interface ApprovalRequest {
  readonly approvalId: string;
  readonly choice: ApprovalChoice;
  readonly reason?: string;
}

/** Checks a `POST /v1/runs/{id}/approval` body: `approval_id`, `choice` (`once`, `always`, `deny`), `reason`. */
export function parseApprovalRequest(body: unknown): ApprovalRequest {
  assertObjectBody(body);
  const parsed = approvalRequestSchema.safeParse(body);
  if (!parsed.success) throw invalidRequest(parsed.error, body);
  const { approval_id, choice, reason } = parsed.data;
  return { approvalId: approval_id, choice, ...(reason ? { reason } : {}) };
}
