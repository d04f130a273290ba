// The per-install server secret lives in the database (server_meta), not beside it, so
// restoring rhizome.db alone keeps every API key and session valid. Sub-keys are derived
// with HMAC so the key that hashes API secrets never signs tokens.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { TenantsRepo } from '../../repos/tenants.repo.js';

export interface Keys {
  apiKeyHmac: Buffer;
  tokenHmac: Buffer;
  jwtSecret: string;
}

export async function loadKeys(tenants: TenantsRepo): Promise<Keys> {
  await tenants.setMetaOnce('server_secret', randomBytes(32).toString('hex'));
  const secret = Buffer.from((await tenants.getMeta('server_secret'))!, 'hex');
  const derive = (label: string) => createHmac('sha256', secret).update(label).digest();
  return {
    apiKeyHmac: derive('rhizome/api-key/v1'),
    tokenHmac: derive('rhizome/token/v1'),
    jwtSecret: derive('rhizome/jwt/v1').toString('base64url'),
  };
}

export function hmac(key: Buffer, value: string): Buffer {
  return createHmac('sha256', key).update(value).digest();
}

/** Both sides are 32-byte digests, so timingSafeEqual never sees different lengths. */
export function digestsEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
