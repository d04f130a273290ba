// Tags as a resource: GET /tags, PATCH and DELETE /tags/{name}, and the repeatable
// ?tag= filter of GET /nodes (every given tag must be on the node).
import { z } from '@hono/zod-openapi';

export const tagName = z.string().trim().min(1).max(100);

/** `?tag=a&tag=b`: one value arrives as a string, several as an array. */
export const queryTags = z
  .union([tagName, z.array(tagName).max(20)])
  .transform((v) => (Array.isArray(v) ? [...new Set(v)] : [v]))
  .optional()
  .openapi({ param: { style: 'form', explode: true }, description: 'Repeatable; every given tag must be on the node' });

export const TagParam = z.object({ name: tagName.openapi({ param: { name: 'name', in: 'path' } }) });

export const Tag = z.object({ name: z.string(), count: z.number().int() }).openapi('Tag');
export const TagList = z.object({ data: z.array(Tag) }).openapi('TagList');
export const TagRename = z.strictObject({ name: tagName }).openapi('TagRename');

export type TagDto = z.infer<typeof Tag>;
