// HMAC-SHA-256, a constant-time comparison of digests and random secrets: what API keys,
// tokens, operator keys and deletion confirmations are made and checked with.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export function hmac(key: Buffer, value: string): Buffer {
  return createHmac('sha256', key).update(value).digest();
}

/** Both sides are 32-byte digests; different lengths are simply unequal. */
export function digestsEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
