// The per-install server secret lives in the database (server_meta), not beside it, so
// restoring rhizome.db alone keeps every API key and session valid. Sub-keys are derived
// with HMAC so the key that hashes API secrets never signs tokens.
import { createHmac, randomBytes } from 'node:crypto';
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

export { digestsEqual, hmac, randomSecret } from '../../digests.js';
