// Per-tenant budgets on the expensive endpoints — search with a query, link suggestions,
// context, captures, uploads and imports — so that one tenant's burst cannot starve the
// others of the model worker and the database (429 rate_limited with Retry-After).
// Decided: the budget applies only while the install has more than one tenant. A
// single-user install has nobody to starve, and its own agents and importers should never
// be throttled by it. Default 600 requests a minute per tenant (RHIZOME_TENANT_BUDGET;
// 0 = no budget), in memory, one process.
import type { MiddlewareHandler } from 'hono';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Services } from '../container.js';
import { RateLimitedError } from '../errors.js';
import type { AppEnv } from './router.js';

const EXPENSIVE: Array<[string, RegExp]> = [
  ['GET', /^\/api\/v1\/links\/suggestions\/?$/],
  ['POST', /^\/api\/v1\/context\/?$/],
  ['POST', /^\/api\/v1\/ask\/?$/],
  ['POST', /^\/api\/v1\/captures(\/upload)?\/?$/],
  ['POST', /^\/api\/v1\/imports\/(markdown|bookmarks)\/?$/],
];
/** How long the tenant count is trusted (tenants are created rarely, by an admin). */
const TENANT_COUNT_TTL_MS = 30_000;

function isExpensive(method: string, path: string, query: string | undefined): boolean {
  if (method === 'GET' && /^\/api\/v1\/nodes\/?$/.test(path)) return !!query?.trim(); // a plain list is cheap
  return EXPENSIVE.some(([m, re]) => m === method && re.test(path));
}

export function tenantBudget(s: Pick<Services, 'config' | 'tenants' | 'log' | 'limiters'>): MiddlewareHandler<AppEnv> {
  const perMinute = s.config.limits.tenantBudgetPerMinute;
  const limiter = perMinute > 0 ? s.limiters.create('tenant-budget', perMinute, 60) : null;
  let shared = { value: false, at: -Infinity };
  const severalTenants = async () => {
    const now = Date.now();
    if (now - shared.at > TENANT_COUNT_TTL_MS) shared = { value: await s.tenants.count() > 1, at: now };
    return shared.value;
  };
  return async (c, next) => {
    const tenantId = c.get('tenantId');
    if (!limiter || !tenantId || !isExpensive(c.req.method, c.req.path, c.req.query('query')) || !await severalTenants()) return next();
    try {
      await limiter.consume(tenantId);
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) throw res;
      if (res.consumedPoints === perMinute + 1) s.log.warn(`tenant ${tenantId} is over its budget of ${perMinute} expensive requests a minute`);
      const wait = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
      throw new RateLimitedError(`This tenant has used its budget of ${perMinute} searches, suggestions, context calls and captures a minute; retry in ${wait} s`, wait);
    }
    return next();
  };
}
