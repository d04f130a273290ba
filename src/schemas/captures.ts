// Capture request and response shapes (HTTP, MCP and CLI share them).
import { z } from '@hono/zod-openapi';
import { CAPTURE_CONTENT_TYPES, CAPTURE_SOURCES, CAPTURE_STATUSES, UPLOAD_MAX_BYTES } from './enums.js';
export { CAPTURE_CONTENT_TYPES, CAPTURE_SOURCES, CAPTURE_STATUSES, UPLOAD_MAX_BYTES };
import { parseHttpUrl } from './url.js';
import { pageQuery } from './common.js';

export const CAPTURE_EVENT_KINDS = [
  'created', 'queued', 'processing_started', 'stage_completed', 'retry_scheduled', 'bookmarked', 'completed', 'failed',
  'retried', 'reingested', 'archived', 'unarchived', 'dismissed',
] as const;
export const CAPTURE_STAGES = ['fetch', 'extract', 'summarize', 'tag', 'embed', 'classify', 'link'] as const;

const httpUrl = z
  .string()
  .trim()
  .max(4096)
  .refine((u) => parseHttpUrl(u) !== null, { message: 'must be an absolute http(s) URL' });

export const CaptureCreate = z
  .strictObject({
    title: z.string().trim().min(1).max(500),
    url: httpUrl.optional(),
    content_type: z.enum(CAPTURE_CONTENT_TYPES),
    why: z.string().max(10_000).optional(),
    selected_text: z.string().max(200_000).optional(),
    raw_content: z.string().max(1_000_000).optional().openapi({ description: 'raw HTML of the page, as the browser saw it' }),
    source: z.enum(CAPTURE_SOURCES),
    tags: z
      .array(z.string().trim().min(1).max(100))
      .max(50)
      .optional()
      .openapi({ description: "the user's own tags; the node gets them ahead of generated ones (kept in metadata.user_tags)" }),
  })
  .openapi('CaptureCreate');
export type CaptureCreateInput = z.infer<typeof CaptureCreate>;

export const CaptureAccepted = z.object({ id: z.string(), status: z.literal('pending') }).openapi('CaptureAccepted');

export const Capture = z
  .object({
    id: z.string(),
    status: z.enum(CAPTURE_STATUSES),
    title: z.string(),
    url: z.string().nullable(),
    url_normalized: z.string().nullable(),
    content_type: z.enum(CAPTURE_CONTENT_TYPES),
    why: z.string().nullable(),
    selected_text: z.string().nullable(),
    source: z.enum(CAPTURE_SOURCES),
    node_id: z.string().nullable(),
    error: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).openapi({ description: 'byte_size, detected_mime, filename, word_count, page_count, width, height, final_url...' }),
    attempts: z.number().int().openapi({ description: 'pipeline runs started (1 + retries + reingests)' }),
    created_at: z.string(),
    updated_at: z.string(),
    processed_at: z.string().nullable(),
  })
  .openapi('Capture');
export type CaptureDto = z.infer<typeof Capture>;

export const CaptureListQuery = z.object({
  status: z.enum(CAPTURE_STATUSES).optional(),
  node_id: z.string().min(1).max(100).optional().openapi({ description: 'only the captures that became (or stand for) this node' }),
  ...pageQuery,
});
export const CaptureList = z
  .object({ data: z.array(Capture), total: z.number().int(), page: z.number().int(), per_page: z.number().int() })
  .openapi('CaptureList');

export const CaptureCheckQuery = z.object({ url: httpUrl });
export const CaptureContentQuery = z.object({ format: z.enum(['markdown', 'raw']).optional() });

export const CaptureEvent = z
  .object({ id: z.string().openapi({ description: 'opaque, like every id' }), kind: z.string(), at: z.string(), detail: z.record(z.string(), z.unknown()) })
  .openapi('CaptureEvent');
export const CaptureActivity = z.object({ data: z.array(CaptureEvent) }).openapi('CaptureActivity');

export const CaptureStage = z
  .object({
    stage: z.enum(CAPTURE_STAGES),
    started_at: z.string(),
    finished_at: z.string().nullable(),
    model: z.string().nullable(),
    output: z.unknown(),
  })
  .openapi('CaptureStage');
export const CaptureProvenance = z
  .object({ capture_id: z.string(), run: z.number().int().nullable(), node_id: z.string().nullable(), stages: z.array(CaptureStage) })
  .openapi('CaptureProvenance');
