import { createRoute } from '@hono/zod-openapi';
import type { Services } from '../../container.js';
import { body, errors, IdParam, json } from '../../schemas/common.js';
import { LinkList, LinksReplace, RelatedList, RelatedQuery, SuggestionList, SuggestionsQuery } from '../../schemas/graph.js';
import { createRouter } from '../router.js';

export function linksRoutes(s: Services) {
  const r = createRouter();

  r.openapi(
    createRoute({
      method: 'patch', path: '/nodes/{id}/links', tags: ['links'],
      summary: "Replace the node's links (each with its reverse); a bad entry changes nothing",
      request: { params: IdParam, ...body(LinksReplace) }, responses: { 200: json(LinkList), ...errors(400, 404) },
    }),
    async (c) => c.json(await s.links.replace(c.get('tenantId'), c.req.valid('param').id, c.req.valid('json').links), 200),
  );

  r.openapi(
    createRoute({
      method: 'get', path: '/nodes/{id}/links', tags: ['links'], summary: "The node's links, by target id",
      request: { params: IdParam }, responses: { 200: json(LinkList), ...errors(404) },
    }),
    async (c) => c.json(await s.links.list(c.get('tenantId'), c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({
      method: 'get', path: '/nodes/{id}/related', tags: ['links'], summary: '1-hop neighbours, by relationship type, title, id',
      request: { params: IdParam, query: RelatedQuery }, responses: { 200: json(RelatedList), ...errors(400, 404) },
    }),
    async (c) => c.json(await s.links.related(c.get('tenantId'), c.req.valid('param').id, c.req.valid('query').limit), 200),
  );

  r.openapi(
    createRoute({
      method: 'get', path: '/links/suggestions', tags: ['links'], summary: 'Nodes worth linking to a text, best first',
      request: { query: SuggestionsQuery }, responses: { 200: json(SuggestionList), ...errors(400) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await s.suggestions.suggest(c.get('tenantId'), q.text, q.limit), 200);
    },
  );

  return r;
}
