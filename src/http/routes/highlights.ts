// /nodes/{id}/highlights: the passages a reader marked on a node, with notes and colours.
import { createRoute } from '@hono/zod-openapi';
import type { Services } from '../../container.js';
import { body, errors, IdParam, json } from '../../schemas/common.js';
import { HighlightParams, NodeHighlight, NodeHighlightCreate, NodeHighlightList, NodeHighlightPatch } from '../../schemas/highlights.js';
import { createRouter } from '../router.js';

export function highlightsRoutes(s: Services) {
  const r = createRouter();

  r.openapi(
    createRoute({
      method: 'get', path: '/nodes/{id}/highlights', tags: ['highlights'], operationId: 'listHighlights',
      summary: "A node's highlights in the order they were made, each re-anchored in the node's current text",
      request: { params: IdParam }, responses: { 200: json(NodeHighlightList), ...errors(404) },
    }),
    async (c) => c.json(await s.highlights.list(c.get('tenantId'), c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/nodes/{id}/highlights', tags: ['highlights'], operationId: 'createHighlight',
      summary: 'Highlight a passage of the node (its words, optionally the context the reader saw), with an optional note',
      request: { params: IdParam, ...body(NodeHighlightCreate) }, responses: { 201: json(NodeHighlight, 'Created'), ...errors(400, 404) },
    }),
    async (c) => c.json(await s.highlights.create(c.get('tenantId'), c.req.valid('param').id, c.req.valid('json')), 201),
  );

  r.openapi(
    createRoute({
      method: 'get', path: '/nodes/{id}/highlights/{highlight_id}', tags: ['highlights'], operationId: 'getHighlight',
      summary: 'One highlight', request: { params: HighlightParams }, responses: { 200: json(NodeHighlight), ...errors(404) },
    }),
    async (c) => {
      const p = c.req.valid('param');
      return c.json(await s.highlights.get(c.get('tenantId'), p.id, p.highlight_id), 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'patch', path: '/nodes/{id}/highlights/{highlight_id}', tags: ['highlights'], operationId: 'updateHighlight',
      summary: "Change a highlight's note or colour", request: { params: HighlightParams, ...body(NodeHighlightPatch) },
      responses: { 200: json(NodeHighlight), ...errors(400, 404) },
    }),
    async (c) => {
      const p = c.req.valid('param');
      return c.json(await s.highlights.update(c.get('tenantId'), p.id, p.highlight_id, c.req.valid('json')), 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'delete', path: '/nodes/{id}/highlights/{highlight_id}', tags: ['highlights'], operationId: 'deleteHighlight',
      summary: 'Remove a highlight', request: { params: HighlightParams }, responses: { 204: { description: 'Removed' }, ...errors(404) },
    }),
    async (c) => {
      const p = c.req.valid('param');
      await s.highlights.remove(c.get('tenantId'), p.id, p.highlight_id);
      return c.body(null, 204);
    },
  );

  return r;
}
