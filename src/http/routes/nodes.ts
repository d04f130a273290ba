import { createRoute } from '@hono/zod-openapi';
import type { Services } from '../../container.js';
import type { z } from '@hono/zod-openapi';
import { body, errors, IdParam, json, Problem } from '../../schemas/common.js';
import { Node, NodeBatch, NodeBatchResult, NodeCreate, NodePatch, NodeSearchQuery, NodeSearchResult } from '../../schemas/nodes.js';
import { problemBody } from '../problem.js';
import { createRouter } from '../router.js';

export function nodesRoutes(s: Services) {
  const r = createRouter();

  r.openapi(
    createRoute({
      method: 'get', path: '/nodes', tags: ['nodes'],
      summary: 'Search nodes (keyword, semantic, hybrid) or list them newest first when there is no query',
      request: { query: NodeSearchQuery }, responses: { 200: json(NodeSearchResult), ...errors(400) },
    }),
    async (c) => c.json(await s.search.search(c.get('tenantId'), c.req.valid('query')), 200),
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/nodes', tags: ['nodes'], summary: 'Create a node (its embedding follows in the background)',
      request: body(NodeCreate), responses: { 201: json(Node, 'Created'), ...errors(400) },
    }),
    (c) => c.json(s.nodes.create(c.get('tenantId'), c.req.valid('json')), 201),
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/nodes/batch', tags: ['nodes'],
      summary: 'Create up to 500 nodes: per-item results in order; the valid ones are written in one transaction',
      request: body(NodeBatch), responses: { 200: json(NodeBatchResult), ...errors(400, 413) },
    }),
    (c) => {
      const results = s.nodes.createMany(c.get('tenantId'), c.req.valid('json').nodes);
      const created = results.filter((r) => 'node' in r).length;
      const out = results.map((r) => ('node' in r ? r.node : (problemBody(r.error) as z.infer<typeof Problem>)));
      return c.json({ results: out, created, failed: results.length - created }, 200);
    },
  );

  r.openapi(
    createRoute({ method: 'get', path: '/nodes/{id}', tags: ['nodes'], summary: 'Get one node', request: { params: IdParam }, responses: { 200: json(Node), ...errors(404) } }),
    (c) => c.json(s.nodes.get(c.get('tenantId'), c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({
      method: 'patch', path: '/nodes/{id}', tags: ['nodes'], summary: 'Update title, content, summary, tags, status, para_item_ids',
      request: { params: IdParam, ...body(NodePatch) }, responses: { 200: json(Node), ...errors(400, 404) },
    }),
    (c) => c.json(s.nodes.update(c.get('tenantId'), c.req.valid('param').id, c.req.valid('json')), 200),
  );

  r.openapi(
    createRoute({
      method: 'delete', path: '/nodes/{id}', tags: ['nodes'], summary: 'Delete a node with its links and vector',
      request: { params: IdParam }, responses: { 204: { description: 'Deleted' }, ...errors(404) },
    }),
    (c) => {
      s.nodes.remove(c.get('tenantId'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  return r;
}
