// The confirmation a tenant's deletion needs: a token naming the tenant and an expiry,
// signed with the server's secret. Nothing is stored, so any process behind the proxy can
// check a token another issued; it cannot be forged or moved to another tenant.
import { digestsEqual, hmac } from '../../digests.js';

export const DELETION_TOKEN_TTL_MS = 10 * 60_000;

export function deletionToken(key: Buffer, tenantId: string, expiresAt: number): string {
  return `${expiresAt.toString(36)}.${sign(key, tenantId, expiresAt).toString('base64url')}`;
}

/** Whether the token confirms deleting this tenant at `now`. */
export function deletionTokenValid(key: Buffer, tenantId: string, token: string, now: number): boolean {
  const m = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return false;
  const expiresAt = parseInt(m[1], 36);
  return expiresAt > now && digestsEqual(Buffer.from(m[2], 'base64url'), sign(key, tenantId, expiresAt));
}

function sign(key: Buffer, tenantId: string, expiresAt: number): Buffer {
  return hmac(key, `rhizome/delete-tenant/v1:${tenantId}:${expiresAt}`);
}
