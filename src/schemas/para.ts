// PARA items: request and response shapes (http, mcp and cli share them).
import { z } from '@hono/zod-openapi';
import { PARA_CATEGORIES, PARA_STATUSES } from './enums.js';
export { PARA_CATEGORIES, PARA_STATUSES };

export const ParaCategory = z.enum(PARA_CATEGORIES);
export const ParaStatus = z.enum(PARA_STATUSES);
export type ParaCategory = z.infer<typeof ParaCategory>;
export type ParaStatus = z.infer<typeof ParaStatus>;

const label = z.string().trim().min(1).max(200);
const description = z.string().trim().max(5000);

export const ParaItem = z
  .object({
    id: z.string(),
    category: ParaCategory,
    label: z.string(),
    description: z.string(),
    slug: z.string(),
    status: ParaStatus,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('ParaItem');
export type ParaItem = z.infer<typeof ParaItem>;

// slug is deliberately absent: strictObject turns a client-sent slug into a 400.
export const ParaCreate = z.strictObject({ category: ParaCategory, label, description: description.optional() }).openapi('ParaCreate');
export type ParaCreate = z.infer<typeof ParaCreate>;

export const ParaPatch = z
  .strictObject({ label: label.optional(), description: description.optional(), status: ParaStatus.optional() })
  .openapi('ParaPatch');
export type ParaPatch = z.infer<typeof ParaPatch>;

export const ParaListQuery = z.object({ category: ParaCategory.optional(), status: ParaStatus.optional() });
export const ParaList = z.object({ data: z.array(ParaItem) }).openapi('ParaList');

export const ParaTreeItem = ParaItem.extend({ node_count: z.number().int() }).openapi('ParaTreeItem');
export type ParaTreeItem = z.infer<typeof ParaTreeItem>;
export const ParaTreeQuery = z.object({
  include_archived: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
});
export const ParaTree = z
  .object({ projects: z.array(ParaTreeItem), areas: z.array(ParaTreeItem), resources: z.array(ParaTreeItem) })
  .openapi('ParaTree');

export const Queued = z.object({ queued: z.number().int() }).openapi('ParaQueued');
