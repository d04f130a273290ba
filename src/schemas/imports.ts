// Import runs and exports: what the API answers.
import { z } from '@hono/zod-openapi';

export const ImportAccepted = z.object({
  id: z.string(),
  status: z.literal('running'),
  format: z.string().optional().openapi({ description: 'bookmark imports: the format recognised' }),
}).openapi('ImportAccepted');

export const ImportCounts = z.object({
  total: z.number().int(), created: z.number().int(), updated: z.number().int(), skipped: z.number().int(), failed: z.number().int(),
  unresolved_links: z.number().int(), para_items_created: z.number().int(), links_set: z.number().int(), attachments_captured: z.number().int(),
  highlights_added: z.number().int(),
});

export const ImportRun = z.object({
  id: z.string(),
  kind: z.enum(['markdown', 'bookmarks', 'highlights']),
  status: z.enum(['running', 'completed', 'failed', 'interrupted']),
  counts: ImportCounts,
  problems: z.array(z.object({ path: z.string(), kind: z.string(), detail: z.string() })),
  error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
}).openapi('ImportRun');

/** A vault zip may hold many files; each file inside is still held to the upload limit. */
export const IMPORT_ARCHIVE_MAX_BYTES = 200 * 1024 * 1024;
