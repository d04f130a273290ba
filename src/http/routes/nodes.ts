import { createRoute, z } from '@hono/zod-openapi';
import type { Services } from '../../container.js';
import { body, errors, IdParam, json, type Problem } from '../../schemas/common.js';
import { Node, NodeBatch, NodeBatchResult, NodeCreate, NodePatch, NodeSearchQuery, NodeSearchResult } from '../../schemas/nodes.js';
import { NodeHighlight } from '../../schemas/highlights.js';
import { problemBody } from '../problem.js';
import { createRouter } from '../router.js';

// `annotations`, not `highlights`: on a search result `highlights` are where the query matched.
const NodeWithHighlights = Node.extend({ annotations: z.array(NodeHighlight).openapi({ description: "The node's highlights (as GET /nodes/{id}/highlights lists them)" }) }).openapi('NodeWithHighlights');

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
    async (c) => c.json(await s.nodes.create(c.get('tenantId'), c.req.valid('json')), 201),
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/nodes/batch', tags: ['nodes'],
      summary: 'Create up to 500 nodes: per-item results in order; the valid ones are written in one transaction',
      request: body(NodeBatch), responses: { 200: json(NodeBatchResult), ...errors(400, 413) },
    }),
    async (c) => {
      const results = await s.nodes.createMany(c.get('tenantId'), c.req.valid('json').nodes);
      const created = results.filter((r) => 'node' in r).length;
      const out = results.map((r) => ('node' in r ? r.node : (problemBody(r.error) as z.infer<typeof Problem>)));
      return c.json({ results: out, created, failed: results.length - created }, 200);
    },
  );

  r.openapi(
    createRoute({ method: 'get', path: '/nodes/{id}', tags: ['nodes'], summary: 'Get one node with its highlights', request: { params: IdParam }, responses: { 200: json(NodeWithHighlights), ...errors(404) } }),
    async (c) => {
      const t = c.get('tenantId');
      const { node, marks } = await s.nodes.getWithMarks(t, c.req.valid('param').id);
      return c.json({ ...node, annotations: s.highlights.fromMarks([{ id: node.id, body_markdown: node.body_markdown, marks }]).get(node.id) ?? [] }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'patch', path: '/nodes/{id}', tags: ['nodes'], summary: 'Update title, content, summary, tags, status, para_item_ids',
      request: { params: IdParam, ...body(NodePatch) }, responses: { 200: json(Node), ...errors(400, 404) },
    }),
    async (c) => c.json(await s.nodes.update(c.get('tenantId'), c.req.valid('param').id, c.req.valid('json')), 200),
  );

  r.openapi(
    createRoute({
      method: 'delete', path: '/nodes/{id}', tags: ['nodes'], summary: 'Delete a node with its links and vector',
      request: { params: IdParam }, responses: { 204: { description: 'Deleted' }, ...errors(404) },
    }),
    async (c) => {
      await s.nodes.remove(c.get('tenantId'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  return r;
}
