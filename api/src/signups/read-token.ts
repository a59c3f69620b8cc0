import { createHash, randomBytes } from 'node:crypto';
import type { Request } from 'express';

/**
 * A sign-up holds personal data, so it is readable through the API only with the secret that its
 * creator alone received in the 201 answer (`readToken`), sent back as `Authorization: Bearer`.
 * Only its SHA-256 is stored with the sign-up: 32 random bytes need no slow hash.
 */
export function createReadToken(): { readonly token: string; readonly hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashReadToken(token) };
}

export function hashReadToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The bearer token of the request, if it has one that could be a read token. */
export function readBearerToken(req: Request): string | null {
  const match = /^Bearer ([A-Za-z0-9_-]{43})$/.exec(req.get('authorization') ?? '');
  return match?.[1] ?? null;
}
