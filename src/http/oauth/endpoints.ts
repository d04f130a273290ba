// The authorization server's machine endpoints: metadata (RFC 8414), dynamic client
// registration (RFC 7591), token (RFC 6749 §3.2) and revocation (RFC 7009). Errors are
// OAuth's {"error", "error_description"} JSON, never problem+json and never a 500 for
// anything the client sent. Registration and failed token requests are rate-limited per
// client address.
import type { Context, Hono } from 'hono';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Services } from '../../container.js';
import { AS_METADATA_PATH, OAUTH_PATHS } from '../../services/auth/oauth/metadata.js';
import { OAuthError } from '../../services/auth/oauth/oauth-error.js';
import { clientAddress } from '../rate-limit.js';
import type { AppEnv } from '../router.js';
import { isJsonMediaType } from '../media-type.js';

export const REGISTRATIONS_PER_HOUR = 20;
export const TOKEN_FAILURES_PER_MINUTE = 30;

function oauthJson(c: Context, body: unknown, status: number, headers: Record<string, string> = {}) {
  return c.json(body, status as 200, { 'Cache-Control': 'no-store', Pragma: 'no-cache', ...headers });
}

function oauthError(c: Context, e: OAuthError) {
  return oauthJson(c, e.body(), e.status, e.status === 401 ? { 'WWW-Authenticate': `Bearer error="${e.error}"`, ...e.headers } : e.headers);
}

async function consume(l: RateLimiterAbstract, key: string): Promise<number> {
  try {
    await l.consume(key);
    return 0;
  } catch (res) {
    if (res instanceof RateLimiterRes) return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    throw res;
  }
}

const slowDown = (wait: number) => new OAuthError('slow_down', `Too many requests; retry in ${wait} s`, 429, { 'Retry-After': String(wait) });

async function readForm(c: Context): Promise<URLSearchParams> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(c.req.header('Content-Type') ?? '')) {
    throw new OAuthError('invalid_request', 'The body must be application/x-www-form-urlencoded');
  }
  return new URLSearchParams(await c.req.text());
}

export function endpointsMount(app: Hono<AppEnv>, s: Services): void {
  const registrations = s.limiters.create('oauth-register', REGISTRATIONS_PER_HOUR, 3600);
  const tokenFailures = s.limiters.create('oauth-token-failures', TOKEN_FAILURES_PER_MINUTE, 60);
  const address = (c: Context) => clientAddress(c, s.config.limits.trustProxy);
  const guard = (run: (c: Context) => Promise<Response>) => async (c: Context) => {
    try {
      return await run(c);
    } catch (e) {
      if (e instanceof OAuthError) return oauthError(c, e);
      throw e;
    }
  };

  for (const path of [AS_METADATA_PATH, `${AS_METADATA_PATH}/mcp`]) app.get(path, (c) => c.json(s.oauth.metadata(), 200, { 'Cache-Control': 'max-age=300' }));

  app.post(OAUTH_PATHS.register, guard(async (c) => {
    if (!isJsonMediaType(c.req.header('Content-Type'))) throw new OAuthError('invalid_client_metadata', 'The body must be application/json', 415);
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new OAuthError('invalid_client_metadata', 'The body must be a JSON object of client metadata');
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new OAuthError('invalid_client_metadata', 'The body must be a JSON object of client metadata');
    // Counted before validation: a flood of bad bodies is a flood too.
    const wait = await consume(registrations, address(c));
    if (wait) throw slowDown(wait);
    return oauthJson(c, await s.oauth.clients.register(body), 201);
  }));

  app.post(OAUTH_PATHS.token, guard(async (c) => {
    try {
      return oauthJson(c, await s.oauth.tokens.grant(await readForm(c)), 200);
    } catch (e) {
      if (!(e instanceof OAuthError)) throw e;
      const wait = await consume(tokenFailures, address(c));
      throw wait ? slowDown(wait) : e;
    }
  }));

  app.post(OAUTH_PATHS.revoke, guard(async (c) => {
    await s.oauth.tokens.revoke(await readForm(c));
    return oauthJson(c, {}, 200);
  }));
}
