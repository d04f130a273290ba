import { createRoute } from '@hono/zod-openapi';
import type { Services } from '../../container.js';
import { errors, json } from '../../schemas/common.js';
import { GraphHealth } from '../../schemas/graph.js';
import { createRouter } from '../router.js';

export function graphHealthRoutes(s: Services) {
  const r = createRouter();
  r.openapi(
    createRoute({
      method: 'get', path: '/graph-health', tags: ['context'], summary: 'Graph counters from one consistent snapshot',
      responses: { 200: json(GraphHealth), ...errors() },
    }),
    async (c) => c.json(await s.graphHealth.get(c.get('tenantId')), 200),
  );
  return r;
}
