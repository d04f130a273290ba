// The operator's view of tenants (/api/v1/admin/tenants).
import { z } from '@hono/zod-openapi';

export const TenantName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/i, 'must be 1–63 letters, digits, "-" or "_", starting with a letter or digit');

export const AdminTenantCreate = z.strictObject({ name: TenantName }).openapi('AdminTenantCreate');

export const AdminTenant = z
  .object({
    id: z.string(),
    name: z.string(),
    status: z.enum(['active', 'suspended']),
    created_at: z.string(),
    suspended_at: z.string().nullable(),
    nodes: z.number().int(),
    captures: z.number().int(),
    api_keys: z.number().int().openapi({ description: 'Working (unrevoked) API keys' }),
  })
  .openapi('AdminTenant');

export const AdminTenantCreated = AdminTenant.extend({
  api_key: z.string().openapi({ description: 'The tenant\'s first API key; shown only in this answer' }),
}).openapi('AdminTenantCreated');

export const AdminTenantList = z.object({ data: z.array(AdminTenant) }).openapi('AdminTenantList');

export const AdminKeyCreate = z.strictObject({ name: z.string().trim().min(1).max(100).default('default') }).openapi('AdminKeyCreate');

export const AdminKeyCreated = z
  .object({ id: z.string(), name: z.string(), key: z.string().openapi({ description: 'Shown only in this answer' }), created_at: z.string() })
  .openapi('AdminKeyCreated');

export const AdminDeletion = z
  .object({
    tenant: AdminTenant,
    confirmation_token: z.string().openapi({ description: 'Pass as ?confirm= to DELETE /api/v1/admin/tenants/{id} within ten minutes' }),
    expires_at: z.string(),
  })
  .openapi('AdminDeletion');

export const AdminDeleteQuery = z.object({
  confirm: z.string().min(1).max(200).openapi({ description: 'The confirmation_token of POST /api/v1/admin/tenants/{id}/deletion' }),
});

export const AdminDeleted = z
  .object({ tenant_id: z.string(), deleted_rows: z.record(z.string(), z.number().int()).openapi({ description: 'Rows removed, by table' }) })
  .openapi('AdminDeleted');
