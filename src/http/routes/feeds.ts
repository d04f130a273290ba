import { createRoute } from '@hono/zod-openapi';
import type { Services } from '../../container.js';
import { ValidationError } from '../../errors.js';
import { body, errors, IdParam, json } from '../../schemas/common.js';
import { Feed, FeedCreate, FeedList, FeedPatch, OpmlImported } from '../../schemas/feeds.js';
import { createRouter } from '../router.js';

const OPML_MAX_BYTES = 2 * 1024 * 1024;

export function feedsRoutes(s: Services) {
  const r = createRouter();
  const t = ['feeds'];

  // /feeds/opml before /feeds/{id}: "opml" is not an id.
  r.openapi(
    createRoute({
      method: 'get', path: '/feeds/opml', tags: t, summary: 'The subscriptions as OPML 2.0',
      responses: { 200: { description: 'OPML', content: { 'text/x-opml': { schema: { type: 'string' } } } }, ...errors() },
    }),
    async (c) => c.body(await s.feeds.exportOpml(c.get('tenantId')), 200, { 'content-type': 'text/x-opml; charset=utf-8', 'content-disposition': 'attachment; filename="rhizome-feeds.opml"' }),
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/feeds/opml', tags: t, summary: 'Subscribe to every feed an OPML document lists (folders become tags)',
      request: { body: { required: true, content: { 'text/x-opml': { schema: { type: 'string' } }, 'application/xml': { schema: { type: 'string' } }, 'text/xml': { schema: { type: 'string' } } } } },
      responses: { 200: json(OpmlImported), ...errors(400, 413) },
    }),
    async (c) => {
      const xml = await c.req.text();
      if (!xml.trim()) throw new ValidationError('body: an OPML document is required', [{ path: 'body', message: 'empty' }]);
      if (Buffer.byteLength(xml) > OPML_MAX_BYTES) throw new ValidationError('body: the OPML document is larger than 2 MB', [{ path: 'body', message: 'too large' }]);
      return c.json(await s.feeds.importOpml(c.get('tenantId'), xml), 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/feeds', tags: t, summary: "Subscribe to a feed by its URL or a page's (auto-discovery); polls at once",
      request: body(FeedCreate), responses: { 201: json(Feed, 'Created'), ...errors(400, 409) },
    }),
    async (c) => c.json(await s.feeds.subscribe(c.get('tenantId'), c.req.valid('json')), 201),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/feeds', tags: t, summary: "The tenant's feeds", responses: { 200: json(FeedList), ...errors() } }),
    async (c) => c.json({ data: await s.feeds.list(c.get('tenantId')) }, 200),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/feeds/{id}', tags: t, summary: 'One feed', request: { params: IdParam }, responses: { 200: json(Feed), ...errors(404) } }),
    async (c) => c.json(await s.feeds.get(c.get('tenantId'), c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({
      method: 'patch', path: '/feeds/{id}', tags: t, summary: 'Change, pause or resume a feed',
      request: { params: IdParam, ...body(FeedPatch) }, responses: { 200: json(Feed), ...errors(400, 404) },
    }),
    async (c) => c.json(await s.feeds.update(c.get('tenantId'), c.req.valid('param').id, c.req.valid('json')), 200),
  );

  r.openapi(
    createRoute({
      method: 'delete', path: '/feeds/{id}', tags: t, summary: 'Unsubscribe (captures already made stay)',
      request: { params: IdParam }, responses: { 204: { description: 'Deleted' }, ...errors(404) },
    }),
    async (c) => {
      await s.feeds.remove(c.get('tenantId'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/feeds/{id}/poll', tags: t, summary: 'Poll now', request: { params: IdParam },
      responses: { 202: json(Feed, 'Queued'), ...errors(404, 409) },
    }),
    async (c) => c.json(await s.feeds.pollNow(c.get('tenantId'), c.req.valid('param').id), 202),
  );

  return r;
}
