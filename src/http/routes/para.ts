import { createRoute, z } from '@hono/zod-openapi';
import type { Services } from '../../container.js';
import { body, errors, IdParam, json } from '../../schemas/common.js';
import { ParaCreate, ParaItem, ParaList, ParaListQuery, ParaPatch, ParaTree, ParaTreeQuery, Queued } from '../../schemas/para.js';
import { createRouter } from '../router.js';

// DELETE answers 410 for any id, even one that would fail IdParam's length rule.
const AnyIdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });

export function paraRoutes(s: Services) {
  const r = createRouter();
  const tags = ['para'];

  // Static paths first so /para/tree and /para/rescan are never read as /para/{id}.
  r.openapi(
    createRoute({
      method: 'get', path: '/para/tree', tags, summary: 'Items grouped by category, each with node_count (archived items only with include_archived=true)',
      request: { query: ParaTreeQuery }, responses: { 200: json(ParaTree), ...errors(400) },
    }),
    async (c) => c.json(await s.para.tree(c.get('tenantId'), c.req.valid('query').include_archived ?? false), 200),
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/para/rescan', tags, summary: 'Re-classify every orphan node in the background (once per 5 minutes per tenant)',
      responses: { 200: json(Queued), ...errors(429) },
    }),
    async (c) => c.json(await s.para.rescan(c.get('tenantId')), 200),
  );

  r.openapi(
    createRoute({
      method: 'get', path: '/para', tags, summary: 'List PARA items, optionally by category and status',
      request: { query: ParaListQuery }, responses: { 200: json(ParaList), ...errors(400) },
    }),
    async (c) => c.json({ data: await s.para.list(c.get('tenantId'), c.req.valid('query')) }, 200),
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/para', tags, summary: 'Create a PARA item (slug generated from the label); queues classification of orphans',
      request: body(ParaCreate), responses: { 201: json(ParaItem, 'Created'), ...errors(400) },
    }),
    async (c) => c.json(await s.para.create(c.get('tenantId'), c.req.valid('json')), 201),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/para/{id}', tags, summary: 'One PARA item', request: { params: IdParam }, responses: { 200: json(ParaItem), ...errors(404) } }),
    async (c) => c.json(await s.para.get(c.get('tenantId'), c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({
      method: 'patch', path: '/para/{id}', tags, summary: 'Change label, description or status (status changes have the same effects as the lifecycle calls)',
      request: { params: IdParam, ...body(ParaPatch) }, responses: { 200: json(ParaItem), ...errors(400, 404, 409) },
    }),
    async (c) => c.json(await s.para.update(c.get('tenantId'), c.req.valid('param').id, c.req.valid('json')), 200),
  );

  const lifecycle = [
    ['complete', 'Mark an active project completed (409 for other items or states)', s.para.complete],
    ['undo-complete', 'Reopen a completed project (409 for other items or states)', s.para.undoComplete],
    ['archive', 'Archive the item and hide its node associations; idempotent', s.para.archive],
    ['unarchive', 'Make the item active and restore the associations its archive hid; idempotent', s.para.unarchive],
  ] as const;
  for (const [action, summary, fn] of lifecycle) {
    r.openapi(
      createRoute({
        method: 'post', path: `/para/{id}/${action}`, tags, summary,
        request: { params: IdParam }, responses: { 200: json(ParaItem), ...errors(404, 409) },
      }),
      async (c) => c.json(await fn.call(s.para, c.get('tenantId'), c.req.valid('param').id), 200),
    );
  }

  r.openapi(
    createRoute({
      method: 'post', path: '/para/{id}/match', tags, summary: 'Queue matching of orphan nodes to this active item',
      request: { params: IdParam }, responses: { 200: json(Queued), ...errors(404, 409) },
    }),
    async (c) => c.json(await s.para.match(c.get('tenantId'), c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({
      method: 'delete', path: '/para/{id}', tags, summary: 'Deprecated: always 410 Gone; archive the item instead', deprecated: true,
      request: { params: AnyIdParam },
      responses: { 204: { description: 'Never returned: the endpoint is deprecated and always answers 410' }, ...errors(410) },
    }),
    () => s.para.remove(),
  );

  return r;
}
