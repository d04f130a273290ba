// The archived copy of a captured page (/captures/{id}/snapshot: read it, or make it again)
// and the check for captures whose original page is gone.
import { createRoute, z } from '@hono/zod-openapi';
import type { Services } from '../../container.js';
import { SNAPSHOT_CSP } from '../../ingest/archive/csp.js';
import { ArchiveQueued, LinkCheckResult } from '../../schemas/capture-archive.js';
import { errors, IdParam, json } from '../../schemas/common.js';
import { createRouter } from '../router.js';

export function captureArchiveRoutes(s: Services) {
  const r = createRouter();
  const tag = ['captures'];

  r.openapi(
    createRoute({
      method: 'get', path: '/captures/{id}/snapshot', tags: tag, operationId: 'getCaptureSnapshot',
      summary: 'The archived copy: a self-contained HTML snapshot (or the PDF or image as it came), served so that nothing in it runs or loads',
      request: { params: IdParam },
      responses: { 200: { description: 'The copy', content: { 'text/html': { schema: z.string() }, 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } } }, ...errors(404) },
    }),
    async (c) => {
      const copy = await s.captures.archive.copy(c.get('tenantId'), c.req.valid('param').id);
      return c.body(copy.bytes as never, 200, {
        'Content-Type': copy.mime,
        'X-Content-Type-Options': 'nosniff',
        // No script, no network, a unique origin: the copy is someone else's page.
        'Content-Security-Policy': `sandbox; ${SNAPSHOT_CSP}; frame-ancestors 'self'`,
        'Cache-Control': 'private, no-cache',
        ...(copy.archived_at ? { 'X-Archived-At': copy.archived_at } : {}),
      }) as never;
    },
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/captures/{id}/snapshot', tags: tag, operationId: 'rearchiveCapture',
      summary: 'Archive the page again: it is fetched anew and the new copy replaces the old one (in the background)',
      request: { params: IdParam }, responses: { 202: json(ArchiveQueued, 'Queued'), ...errors(404) },
    }),
    async (c) => c.json(await s.captures.archive.rearchive(c.get('tenantId'), c.req.valid('param').id), 202),
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/captures/check-links', tags: tag, operationId: 'checkCaptureLinks',
      summary: 'Check now whether each captured page is still there; a 404, 410 or dead domain marks the capture "original gone" (metadata.source_status)',
      responses: { 200: json(LinkCheckResult), ...errors() },
    }),
    async (c) => c.json(await s.captures.linkCheck.check(c.get('tenantId')), 200),
  );

  return r;
}
