import { createHash, createHmac, timingSafeEqual, type BinaryLike } from 'node:crypto';

// The API's one signing helper: HMAC-SHA256 for the values it hands out and takes back (page
// tokens, preview cookies) and the keys it derives for them, and the one constant-time comparison
// of secrets (signatures, bearer tokens, XSRF tokens).

/** HMAC-SHA256 of `data` under `key`: 32 bytes, as a key derived for one purpose or a hash no one can recompute without it. */
export function hmac(key: BinaryLike, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

/** The signature of `payload` under `key`: HMAC-SHA256 in base64url (43 characters). */
export function sign(key: BinaryLike, payload: string): string {
  return hmac(key, payload).toString('base64url');
}

/** Whether `signature` is `payload`'s under `key`, compared in constant time. */
export function hasValidSignature(key: BinaryLike, payload: string, signature: string): boolean {
  return sameSecret(sign(key, payload), signature);
}

/** Constant-time equality; hashing first makes the comparison independent of the lengths too. */
export function sameSecret(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}
