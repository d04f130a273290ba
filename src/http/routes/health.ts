import { createRoute } from '@hono/zod-openapi';
import type { Services } from '../../container.js';
import { packageVersion } from '../../paths.js';
import { json, Problem } from '../../schemas/common.js';
import { Health } from '../../schemas/health.js';
import { createRouter } from '../router.js';

export function healthRoutes(s: Services) {
  const r = createRouter();
  const version = packageVersion();
  r.openapi(
    createRoute({ method: 'get', path: '/health', tags: ['meta'], summary: 'Liveness, version, model state, queue depth (no auth)', security: [],
      responses: { 200: json(Health), 400: { description: 'validation_failed (an unknown query parameter)', content: { 'application/problem+json': { schema: Problem } } }, 500: { description: 'internal_error', content: { 'application/problem+json': { schema: Problem } } } } }),
    (c) => {
      const embedding = s.status.embedder();
      return c.json(
        {
          status: embedding.state === 'error' ? ('degraded' as const) : ('ok' as const),
          version,
          uptime_s: Math.round((Date.now() - s.status.startedAt) / 1000),
          embedding,
          jobs: { queued: s.status.queueDepth() },
        },
        200,
      );
    },
  );
  return r;
}
