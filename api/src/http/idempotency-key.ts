import type { Request } from 'express';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

// 1-200 printable ASCII characters: room for a UUID or a client's own scheme, nothing that could
// smuggle control characters into logs or storage.
const VALID_KEY = /^[\x20-\x7e]{1,200}$/;

/** The request's idempotency key, or `null` when it is missing or malformed. */
export function readIdempotencyKey(req: Request): string | null {
  const key = req.get(IDEMPOTENCY_KEY_HEADER);
  return key !== undefined && VALID_KEY.test(key) ? key : null;
}
