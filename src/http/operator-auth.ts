// The operator's credential on /api/v1/admin/* and /metrics: `ApiKey opk_….secret`. A
// tenant's valid key or token is refused with 403 forbidden (it is a real credential, for
// another door); anything invalid is a 401 and counts towards the failed-auth throttle.
import type { MiddlewareHandler } from 'hono';
import type { Services } from '../container.js';
import { ForbiddenError, UnauthorizedError } from '../errors.js';
import { isOperatorKey } from '../services/operators/operator-keys.service.js';
import { ADMIN_PREFIX, authenticate } from './auth.middleware.js';
import { throttled } from './rate-limit.js';

export { ADMIN_PREFIX };

export function requireOperator(s: Pick<Services, 'auth' | 'operators' | 'config' | 'log' | 'limiters'>): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.header('Authorization');
    await throttled(c, s, async () => {
      const m = /^\s*apikey\s+(\S+)\s*$/i.exec(header ?? '');
      if (m && isOperatorKey(m[1])) return s.operators.authenticate(m[1]);
      if (!header) throw new UnauthorizedError('Missing Authorization header: use "ApiKey {operator_key}" (created with `rhizome operator create-key` on the server)');
      await authenticate(s.auth, header);
      throw new ForbiddenError('This route needs an operator key (created with `rhizome operator create-key` on the server); a tenant\'s key or token cannot use it');
    });
    return next();
  };
}
