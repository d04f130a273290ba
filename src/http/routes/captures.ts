// /captures: intake (JSON and multipart upload), URL check, reads and lifecycle calls.
import { createHash } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import type { Services } from '../../container.js';
import { PayloadTooLargeError, ValidationError } from '../../errors.js';
import { readUpload } from '../multipart.js';
import {
  CAPTURE_SOURCES, Capture, CaptureAccepted, CaptureActivity, CaptureCheckQuery, CaptureContentQuery, CaptureCreate, CaptureList, CaptureListQuery,
  CaptureProvenance, UPLOAD_MAX_BYTES,
} from '../../schemas/captures.js';
import { body, errors, IdParam, json } from '../../schemas/common.js';
import { createRouter } from '../router.js';

/** Multipart framing and the title/why fields on top of the file itself. */
const UPLOAD_OVERHEAD = 256 * 1024;

export function capturesRoutes(s: Services) {
  const r = createRouter();
  const tag = ['captures'];

  r.openapi(
    createRoute({
      method: 'post', path: '/captures', tags: tag, summary: 'Capture a page, note or selection; processed in the background',
      request: body(CaptureCreate), responses: { 201: json(CaptureAccepted, 'Accepted and queued'), ...errors(400, 413) },
    }),
    async (c) => c.json(await s.captures.intake.create(c.get('tenantId'), c.req.valid('json')), 201),
  );

  // The upload is read as a stream (never through a body validator that would buffer it),
  // so it is documented in the registry and served by a plain handler.
  r.openAPIRegistry.registerPath({
    method: 'post', path: '/captures/upload', tags: tag, operationId: 'postCapturesUpload', summary: 'Upload a file (PDF, PNG, JPEG, GIF, WebP, .doc, .docx, text, markdown; max 25 MB)',
    request: {
      body: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: z.object({
              file: z.string().openapi({ type: 'string', format: 'binary' }),
              title: z.string().max(500).optional(),
              why: z.string().max(10_000).optional(),
              source: z.enum(CAPTURE_SOURCES).optional().openapi({ description: 'default api' }),
              link_from: z.string().max(100).optional().openapi({ description: 'a node of this tenant that embeds the file: it gets a `references` link to the capture\'s node once that is made (the editor sends the node being written)' }),
            }),
          },
        },
      },
    },
    responses: { 201: json(CaptureAccepted, 'Accepted and queued'), ...errors(400, 413, 415) },
  });
  r.post('/captures/upload', async (c) => {
    const declared = Number(c.req.header('content-length') ?? NaN);
    if (declared > UPLOAD_MAX_BYTES + UPLOAD_OVERHEAD) throw new PayloadTooLargeError('the upload is larger than 25 MB');
    const parts = await readUpload(c.req.raw.body, c.req.header('content-type'), UPLOAD_MAX_BYTES);
    const title = parts.fields.title?.trim();
    const why = parts.fields.why;
    if (title && title.length > 500) throw new ValidationError('title is longer than 500 characters', [{ path: 'title', message: 'at most 500 characters' }]);
    const source = parts.fields.source ?? 'api';
    if (!(CAPTURE_SOURCES as readonly string[]).includes(source)) {
      throw new ValidationError(`source must be one of ${CAPTURE_SOURCES.join(', ')}`, [{ path: 'source', message: 'unknown value' }]);
    }
    const linkFrom = parts.fields.link_from?.trim();
    if (linkFrom !== undefined && (!linkFrom || linkFrom.length > 100 || !await s.nodes.exists(c.get('tenantId'), linkFrom))) {
      throw new ValidationError('link_from must name one of your nodes', [{ path: 'link_from', message: 'no such node' }]);
    }
    const out = await s.captures.intake.upload(
      c.get('tenantId'),
      { filename: parts.filename, bytes: parts.bytes, title, why: why?.slice(0, 10_000) || undefined, source: source as (typeof CAPTURE_SOURCES)[number] },
      linkFrom ? { linkFrom: [linkFrom] } : undefined,
    );
    return c.json(out, 201);
  });

  r.openapi(
    createRoute({
      method: 'get', path: '/captures/check', tags: tag, summary: 'Was this URL captured already? (compared in normal form)',
      request: { query: CaptureCheckQuery }, responses: { 200: json(Capture, 'Captured: the latest capture of it'), ...errors(400, 404) },
    }),
    async (c) => c.json(await s.captures.intake.check(c.get('tenantId'), c.req.valid('query').url), 200),
  );

  r.openapi(
    createRoute({
      method: 'get', path: '/captures', tags: tag, summary: 'List captures, newest first',
      request: { query: CaptureListQuery }, responses: { 200: json(CaptureList), ...errors(400) },
    }),
    async (c) => c.json(await s.captures.lifecycle.list(c.get('tenantId'), c.req.valid('query')), 200),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/captures/{id}', tags: tag, summary: 'One capture with its metadata and processing status', request: { params: IdParam }, responses: { 200: json(Capture), ...errors(404) } }),
    async (c) => c.json(await s.captures.lifecycle.get(c.get('tenantId'), c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({
      method: 'get', path: '/captures/{id}/content', tags: tag, summary: 'format=markdown: the processed content; otherwise the raw content in its own type',
      request: { params: IdParam, query: CaptureContentQuery },
      responses: { 200: { description: 'The content', content: { 'text/markdown': { schema: z.string() }, 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } }, ...errors(400, 404) },
    }),
    async (c) => {
      const out = await s.captures.lifecycle.content(c.get('tenantId'), c.req.valid('param').id, c.req.valid('query').format);
      const headers: Record<string, string> = {
        'Content-Type': out.contentType,
        'X-Content-Type-Options': 'nosniff',
        // Captured HTML is someone else's page: never let it run as ours.
        'Content-Security-Policy': "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'",
      };
      if (out.filename) headers['Content-Disposition'] = `inline; filename="${out.filename.replace(/[^\w.\- ]+/g, '_')}"`;
      return c.body(out.body as never, 200, headers) as never;
    },
  );

  // The page's pictures, kept at capture time. Bytes were sniffed as a raster image when kept.
  for (const kind of ['image', 'favicon'] as const) {
    r.openapi(
      createRoute({
        method: 'get', path: `/captures/{id}/${kind}`, tags: tag,
        summary: kind === 'image' ? "The page's Open Graph image, kept at capture time (404 when it had none)" : "The page's favicon, kept at capture time (404 when none could be kept)",
        request: { params: IdParam },
        responses: {
          200: { description: 'The image in its own type', content: { 'image/*': { schema: z.string().openapi({ format: 'binary' }) } } },
          304: { description: 'Not modified (If-None-Match matched the ETag)' },
          ...errors(404),
        },
      }),
      async (c) => {
        const img = await s.captures.lifecycle.image(c.get('tenantId'), c.req.valid('param').id, kind);
        // Private (the tenant's), revalidated by its hash: a reingest may replace it.
        const etag = `"${createHash('sha256').update(img.bytes).digest('base64url').slice(0, 27)}"`;
        const cache = { ETag: etag, 'Cache-Control': 'private, no-cache', 'X-Content-Type-Options': 'nosniff' };
        if (c.req.header('if-none-match') === etag) return c.body(null, 304, cache) as never;
        return c.body(img.bytes as never, 200, { ...cache, 'Content-Type': img.mime, 'Content-Security-Policy': "default-src 'none'" }) as never;
      },
    );
  }

  const lifecycle = (path: string, summary: string, fn: (tenantId: string, id: string) => Promise<unknown>, statuses: number[]) =>
    r.openapi(
      createRoute({ method: 'post', path: `/captures/{id}/${path}`, tags: tag, summary, request: { params: IdParam }, responses: { 200: json(Capture), ...errors(...statuses) } }),
      async (c) => c.json((await fn(c.get('tenantId'), c.req.valid('param').id)) as never, 200),
    );
  const lc = s.captures.lifecycle;
  lifecycle('retry', 'Re-queue a failed capture (409 while pending or processing)', async (t, id) => await lc.retry(t, id), [404, 409]);
  lifecycle('reingest', 'Run the whole pipeline again; updates the same node', async (t, id) => await lc.reingest(t, id), [404, 409]);
  lifecycle('archive', 'Archive (remembers the previous status; idempotent)', async (t, id) => await lc.archive(t, id), [404]);
  lifecycle('unarchive', 'Restore the status it had before archiving (idempotent)', async (t, id) => await lc.unarchive(t, id), [404]);
  lifecycle('dismiss', 'Dismiss (idempotent); a queued run then discards its result', async (t, id) => await lc.dismiss(t, id), [404]);

  r.openapi(
    createRoute({ method: 'delete', path: '/captures/{id}', tags: tag, summary: 'Delete the capture (its node stays)', request: { params: IdParam }, responses: { 204: { description: 'Deleted' }, ...errors(404) } }),
    async (c) => {
      await lc.remove(c.get('tenantId'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  r.openapi(
    createRoute({ method: 'get', path: '/captures/{id}/activity', tags: tag, summary: 'Timeline of events, oldest first', request: { params: IdParam }, responses: { 200: json(CaptureActivity), ...errors(404) } }),
    async (c) => c.json(await lc.activity(c.get('tenantId'), c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/captures/{id}/provenance', tags: tag, summary: 'Each pipeline stage of the latest run: times, model and output', request: { params: IdParam }, responses: { 200: json(CaptureProvenance), ...errors(404) } }),
    async (c) => c.json(await lc.provenance(c.get('tenantId'), c.req.valid('param').id) as never, 200),
  );

  return r;
}
