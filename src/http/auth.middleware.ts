// Resolves the caller's tenant from `ApiKey {id}.{secret}` or `Bearer <access>`.
import type { MiddlewareHandler } from 'hono';
import { ForbiddenError, UnauthorizedError } from '../errors.js';
import type { Services } from '../container.js';
import type { AuthService } from '../services/auth/auth.service.js';
import { isOperatorKey } from '../services/operators/operator-keys.service.js';
import { throttled } from './rate-limit.js';
import type { AppEnv } from './router.js';

const PUBLIC = new Set(['/api/v1/auth/magic-link', '/api/v1/auth/magic-link/verify', '/api/v1/auth/refresh', '/api/v1/auth/logout', '/api/v1/openapi.json']);
/** Operator routes: their own credential (operator-auth.ts). */
export const ADMIN_PREFIX = '/api/v1/admin';
/** Identity-provider sign-in: the provider's answer or a one-time code is the credential. */
const PUBLIC_PREFIX = '/api/v1/auth/oidc/';

/** The principal an Authorization header names; throws UnauthorizedError when it names none. */
export async function authenticate(auth: AuthService, header: string | undefined) {
  if (!header) throw new UnauthorizedError('Missing Authorization header: use "ApiKey {key_id}.{secret}" or "Bearer <token>"');
  const m = /^(\S+)\s+(\S+)$/.exec(header.trim());
  if (!m) throw new UnauthorizedError('Malformed Authorization header');
  const scheme = m[1].toLowerCase();
  if (scheme === 'apikey' && isOperatorKey(m[2])) throw new ForbiddenError('An operator key names no tenant: it reaches only /api/v1/admin and /metrics');
  const principal =
    scheme === 'apikey' ? await auth.authenticateApiKey(m[2])
    : scheme === 'bearer' ? await auth.authenticateBearer(m[2])
    : null;
  if (!principal) throw new UnauthorizedError(`Unsupported authorization scheme "${m[1]}"`);
  return principal;
}

export function requireAuth(s: Pick<Services, 'auth' | 'config' | 'log' | 'limiters' | 'tenantAdmin'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (PUBLIC.has(c.req.path) || c.req.path.startsWith(PUBLIC_PREFIX) || c.req.path.startsWith('/api/v1/docs')) return next();
    // Operator routes have their own credential (operator-auth.ts).
    if (c.req.path === ADMIN_PREFIX || c.req.path.startsWith(`${ADMIN_PREFIX}/`)) return next();
    // Failed attempts are counted per address and key id (429 past the limit); valid ones never.
    const principal = await throttled(c, s, () => authenticate(s.auth, c.req.header('Authorization')));
    await s.tenantAdmin.assertActive(principal.tenantId, principal.tenantStatus);
    c.set('principal', principal);
    c.set('tenantId', principal.tenantId);
    return next();
  };
}
