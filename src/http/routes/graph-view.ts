// The dashboard's whole-tenant reads: GET /graph (explorer), GET /graph-health/history
// (daily snapshots) and GET /graph-health/inbox (what needs attention).
import { createRoute } from '@hono/zod-openapi';
import type { Services } from '../../container.js';
import { errors, json } from '../../schemas/common.js';
import { GraphQuery, GraphView, HealthHistory, HealthHistoryQuery, Inbox, InboxQuery } from '../../schemas/graph-view.js';
import { createRouter } from '../router.js';

export function graphViewRoutes(s: Services) {
  const r = createRouter();

  r.openapi(
    createRoute({
      method: 'get', path: '/graph', tags: ['context'], operationId: 'getGraph',
      summary: 'The whole graph: nodes (with degree, PARA items, tags) and each link once, capped',
      description: 'The most recently updated `limit` nodes (default 5000, at most 20000) and the links between them (at most 60000). `truncated` says whether anything was left out.',
      request: { query: GraphQuery }, responses: { 200: json(GraphView), ...errors(400) },
    }),
    async (c) => c.json(await s.graphView.graph(c.get('tenantId'), c.req.valid('query').limit), 200),
  );

  r.openapi(
    createRoute({
      method: 'get', path: '/graph-health/history', tags: ['context'], operationId: 'getGraphHealthHistory',
      summary: 'Daily graph-health snapshots, oldest first (today is refreshed by this read)',
      request: { query: HealthHistoryQuery }, responses: { 200: json(HealthHistory), ...errors(400) },
    }),
    async (c) => c.json(await s.healthHistory.history(c.get('tenantId'), c.req.valid('query').days), 200),
  );

  r.openapi(
    createRoute({
      method: 'get', path: '/graph-health/inbox', tags: ['context'], operationId: 'getGraphHealthInbox',
      summary: 'What needs attention: failed captures, orphans, stale unvalidated nodes, automatic PARA filings to confirm',
      request: { query: InboxQuery }, responses: { 200: json(Inbox), ...errors(400) },
    }),
    async (c) => c.json(await s.healthHistory.inbox(c.get('tenantId'), c.req.valid('query').limit), 200),
  );

  return r;
}
