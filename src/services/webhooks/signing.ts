// Standard Webhooks signatures (standardwebhooks.com): the secret is `whsec_` + base64 of
// random key bytes; the signature is `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`))
// with the timestamp in Unix seconds, sent as webhook-id / webhook-timestamp / webhook-signature.
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** 24 random bytes (the spec asks for 24 to 64). */
export function newWebhookSecret(): string {
  return PREFIX + randomBytes(24).toString('base64');
}

export function signWebhook(secret: string, msgId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${msgId}.${timestampSeconds}.${body}`).digest('base64')}`;
}

export function webhookHeaders(secret: string, msgId: string, nowMs: number, body: string): Record<string, string> {
  const ts = Math.floor(nowMs / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': msgId,
    'webhook-timestamp': String(ts),
    'webhook-signature': signWebhook(secret, msgId, ts, body),
  };
}
