// /api/v1/admin/tenants: tenants over the API, for an operator key only (operator-auth.ts).
// Deleting takes two steps: POST …/deletion answers a confirmation token (nothing changes),
// DELETE …?confirm=<token> removes everything the tenant holds, irreversibly.
import { createRoute } from '@hono/zod-openapi';
import type { Services } from '../../container.js';
import { AdminDeleted, AdminDeleteQuery, AdminDeletion, AdminKeyCreate, AdminKeyCreated, AdminTenant, AdminTenantCreate, AdminTenantCreated, AdminTenantList } from '../../schemas/admin.js';
import { body, errors, IdParam, json } from '../../schemas/common.js';
import { ADMIN_PREFIX, requireOperator } from '../operator-auth.js';
import { createRouter } from '../router.js';

export function adminTenantsRoutes(s: Services) {
  const r = createRouter();
  r.openAPIRegistry.registerComponent('securitySchemes', 'OperatorKey', {
    type: 'apiKey', in: 'header', name: 'Authorization', description: 'ApiKey {operator_key_id}.{secret}: created with `rhizome operator create-key` on the server',
  });
  r.use(`${ADMIN_PREFIX.slice('/api/v1'.length)}/*`, requireOperator(s));
  const t = ['admin'];
  const security = [{ OperatorKey: [] }];
  const denied = { 403: { description: 'forbidden (a tenant\'s key or token)', content: errors(401)[401].content } };

  r.openapi(
    createRoute({
      method: 'post', path: '/admin/tenants', tags: t, security, summary: 'Create a tenant and its first API key (shown once)',
      request: body(AdminTenantCreate), responses: { 201: json(AdminTenantCreated, 'Created'), ...errors(400), ...denied },
    }),
    async (c) => c.json(await s.tenantAdmin.create(c.req.valid('json').name), 201),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/admin/tenants', tags: t, security, summary: 'Every tenant, oldest first', responses: { 200: json(AdminTenantList), ...errors(), ...denied } }),
    async (c) => c.json({ data: await s.tenantAdmin.list() }, 200),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/admin/tenants/{id}', tags: t, security, summary: 'One tenant', request: { params: IdParam }, responses: { 200: json(AdminTenant), ...errors(404), ...denied } }),
    async (c) => c.json(await s.tenantAdmin.get(c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/admin/tenants/{id}/suspend', tags: t, security,
      summary: 'Suspend: its keys and sessions get 403 tenant_suspended; its data is kept', request: { params: IdParam },
      responses: { 200: json(AdminTenant), ...errors(404), ...denied },
    }),
    async (c) => c.json(await s.tenantAdmin.suspend(c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/admin/tenants/{id}/resume', tags: t, security, summary: 'Resume a suspended tenant', request: { params: IdParam },
      responses: { 200: json(AdminTenant), ...errors(404), ...denied },
    }),
    async (c) => c.json(await s.tenantAdmin.resume(c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/admin/tenants/{id}/keys', tags: t, security,
      summary: 'Issue a first API key to a tenant with no working key (409 when it has one)',
      request: { params: IdParam, body: { content: { 'application/json': { schema: AdminKeyCreate } }, required: false } },
      responses: { 201: json(AdminKeyCreated, 'Created'), ...errors(400, 404, 409), ...denied },
    }),
    async (c) => c.json(await s.tenantAdmin.issueFirstKey(c.req.valid('param').id, c.req.valid('json')?.name ?? 'default'), 201),
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/admin/tenants/{id}/deletion', tags: t, security,
      summary: 'Step one of deleting a tenant: a confirmation token, valid ten minutes (nothing is deleted)', request: { params: IdParam },
      responses: { 201: json(AdminDeletion, 'Confirmation token issued'), ...errors(404), ...denied },
    }),
    async (c) => c.json(await s.tenantAdmin.requestDeletion(c.req.valid('param').id), 201),
  );

  r.openapi(
    createRoute({
      method: 'delete', path: '/admin/tenants/{id}', tags: t, security,
      summary: 'Step two: delete the tenant and everything it holds, irreversibly (needs ?confirm=<token>)',
      request: { params: IdParam, query: AdminDeleteQuery },
      responses: { 200: json(AdminDeleted, 'Deleted'), ...errors(400, 404), ...denied },
    }),
    async (c) => c.json(await s.tenantAdmin.delete(c.req.valid('param').id, c.req.valid('query').confirm), 200),
  );

  return r;
}
