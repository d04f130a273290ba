// GET /health: without credentials only liveness and version (nothing about tenants); with
// valid credentials also the model state and the caller's own tenant's queue depth (an
// operator key: the whole install's). Invalid
// credentials are a 401, like anywhere else (and count towards the failed-auth throttle).
import { createRoute } from '@hono/zod-openapi';
import type { Services } from '../../container.js';
import { PgUnavailableError } from '../../db/pg/errors.js';
import { packageVersion } from '../../paths.js';
import { json, Problem } from '../../schemas/common.js';
import { Health } from '../../schemas/health.js';
import { authenticate } from '../auth.middleware.js';
import { throttled } from '../rate-limit.js';
import { createRouter } from '../router.js';

export function healthRoutes(s: Services) {
  const r = createRouter();
  const version = packageVersion();
  r.openapi(
    createRoute({
      method: 'get', path: '/health', tags: ['meta'],
      summary: 'Liveness and version (no auth); with credentials also model state and your queue depth',
      security: [{}, { ApiKey: [] }, { Bearer: [] }],
      responses: { 200: json(Health), 400: { description: 'validation_failed (an unknown query parameter)', content: { 'application/problem+json': { schema: Problem } } }, 401: { description: 'unauthorized (credentials sent but not valid)', content: { 'application/problem+json': { schema: Problem } } } },
    }),
    async (c) => {
      const header = c.req.header('Authorization');
      // An operator key sees the install's whole queue; a tenant's credentials only its own.
      const operatorKey = /^\s*apikey\s+(opk_\S+)\s*$/i.exec(header ?? '')?.[1];
      try {
        const operator = operatorKey ? await throttled(c, s, () => s.operators.authenticate(operatorKey)) : null;
        const principal = header && !operator ? await throttled(c, s, () => authenticate(s.auth, header)) : null;
        const embedding = s.status.embedder();
        const reason = s.status.storage.reason() ?? (embedding.state === 'error' ? 'the embedding model failed to load' : undefined);
        const base = { status: reason ? ('degraded' as const) : ('ok' as const), version, uptime_s: Math.round((Date.now() - s.status.startedAt) / 1000), ...(reason ? { reason } : {}) };
        if (operator) return c.json({ ...base, embedding, jobs: { queued: await s.status.queueDepth() } }, 200);
        if (!principal) return c.json(base, 200);
        // The queue's figures are read from the database: with credentials, /health always asks it
        // (an API key held in memory, services/auth/key-cache.ts, does not).
        return c.json({ ...base, embedding: { ...embedding, pending: await s.status.embeddingPendingOf(principal.tenantId) }, jobs: { queued: await s.status.queueDepthOf(principal.tenantId) } }, 200);
      } catch (e) {
        // Credentials or the queue cannot be read while the database is out of reach: say so, and why.
        if (!(e instanceof PgUnavailableError)) throw e;
        return c.json({ status: 'degraded' as const, version, uptime_s: Math.round((Date.now() - s.status.startedAt) / 1000), reason: `the database cannot be reached (${e.message})` }, 200);
      }
    },
  );
  return r;
}
