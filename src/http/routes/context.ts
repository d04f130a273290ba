import { createRoute } from '@hono/zod-openapi';
import type { Services } from '../../container.js';
import { body, errors, json } from '../../schemas/common.js';
import { ContextRequest, ContextResult } from '../../schemas/graph.js';
import { createRouter } from '../router.js';

export function contextRoutes(s: Services) {
  const r = createRouter();
  r.openapi(
    createRoute({
      method: 'post', path: '/context', tags: ['context'], summary: 'Ranked nodes for a session, each with its reasons',
      request: body(ContextRequest), responses: { 200: json(ContextResult), ...errors(400) },
    }),
    async (c) => c.json(await s.context.context(c.get('tenantId'), c.req.valid('json')), 200),
  );
  return r;
}
