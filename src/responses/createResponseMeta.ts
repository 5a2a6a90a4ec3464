import { randomUUID } from 'node:crypto';
import type { ResponseMeta } from '../openai/responseObject.js';

/** A new `resp_...` id and creation time for a response. */
export function createResponseMeta(fields: Omit<ResponseMeta, 'id' | 'createdAt'>): ResponseMeta {
  return { id: `resp_${randomUUID().replaceAll('-', '')}`, createdAt: Math.floor(Date.now() / 1000), ...fields };
}
