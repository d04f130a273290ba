import { createRoute } from '@hono/zod-openapi';
import type { Services } from '../../container.js';
import { body, errors, json } from '../../schemas/common.js';
import { Tag, TagList, TagParam, TagRename } from '../../schemas/tags.js';
import { createRouter } from '../router.js';

export function tagsRoutes(s: Services) {
  const r = createRouter();

  r.openapi(
    createRoute({
      method: 'get', path: '/tags', tags: ['tags'], operationId: 'listTags', summary: 'Every tag with how many nodes carry it, most used first',
      responses: { 200: json(TagList), ...errors(400) },
    }),
    async (c) => c.json(await s.tags.list(c.get('tenantId')), 200),
  );

  r.openapi(
    createRoute({
      method: 'patch', path: '/tags/{name}', tags: ['tags'], operationId: 'renameTag',
      summary: 'Rename a tag on every node; renaming to an existing tag merges the two',
      request: { params: TagParam, ...body(TagRename) }, responses: { 200: json(Tag), ...errors(400, 404) },
    }),
    async (c) => c.json(await s.tags.rename(c.get('tenantId'), c.req.valid('param').name, c.req.valid('json').name), 200),
  );

  r.openapi(
    createRoute({
      method: 'delete', path: '/tags/{name}', tags: ['tags'], operationId: 'deleteTag', summary: 'Remove a tag from every node',
      request: { params: TagParam }, responses: { 204: { description: 'Removed' }, ...errors(404) },
    }),
    async (c) => {
      await s.tags.remove(c.get('tenantId'), c.req.valid('param').name);
      return c.body(null, 204);
    },
  );

  return r;
}
