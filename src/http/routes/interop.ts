// /imports (Markdown vault zips, bookmark files, Kindle and Readwise highlights; answered at once, polled for progress)
// and /exports (the vault as a zip, everything as JSON).
import { Readable } from 'node:stream';
import { createRoute, z } from '@hono/zod-openapi';
import type { Services } from '../../container.js';
import { PayloadTooLargeError, ValidationError } from '../../errors.js';
import { readUpload } from '../multipart.js';
import { errors, IdParam, json } from '../../schemas/common.js';
import { UPLOAD_MAX_BYTES } from '../../schemas/enums.js';
import { IMPORT_ARCHIVE_MAX_BYTES, ImportAccepted, ImportRun } from '../../schemas/imports.js';
import { createRouter } from '../router.js';

const UPLOAD_OVERHEAD = 256 * 1024;
const fileBody = (fields: Record<string, z.ZodType>) => ({
  body: { required: true, content: { 'multipart/form-data': { schema: z.object({ file: z.string().openapi({ type: 'string', format: 'binary' }), ...fields }) } } },
});

async function upload(c: { req: { raw: Request; header: (n: string) => string | undefined } }, max: number) {
  const declared = Number(c.req.header('content-length') ?? NaN);
  if (declared > max + UPLOAD_OVERHEAD) throw new PayloadTooLargeError(`the upload is larger than ${Math.round(max / (1024 * 1024))} MB`);
  return readUpload(c.req.raw.body, c.req.header('content-type'), max);
}

export function interopRoutes(s: Services) {
  const r = createRouter();
  const tag = ['import and export'];

  r.openAPIRegistry.registerPath({
    method: 'post', path: '/imports/markdown', operationId: 'importMarkdown', tags: tag, summary: 'Import a Markdown vault (a zip); answers at once with an import id to poll',
    request: fileBody({ para_from_folders: z.enum(['true', 'false']).optional().openapi({ description: 'top-level Projects/, Areas/, Resources/, Archive/ folders become PARA items' }) }),
    responses: { 202: json(ImportAccepted, 'Accepted; runs in the background'), ...errors(400, 413, 415) },
  });
  r.post('/imports/markdown', async (c) => {
    const parts = await upload(c, IMPORT_ARCHIVE_MAX_BYTES);
    const flag = parts.fields.para_from_folders;
    if (flag !== undefined && flag !== 'true' && flag !== 'false') throw new ValidationError('para_from_folders must be true or false', [{ path: 'para_from_folders', message: 'true or false' }]);
    const source = `markdown:${parts.filename.replace(/\.zip$/i, '')}`;
    return c.json(await s.imports.startMarkdownZip(c.get('tenantId'), parts.bytes, { source, paraFromFolders: flag === 'true' }), 202);
  });

  r.openAPIRegistry.registerPath({
    method: 'post', path: '/imports/bookmarks', operationId: 'importBookmarks', tags: tag,
    summary: 'Import a bookmark file (Netscape HTML, Pocket CSV, Omnivore, Karakeep or Linkwarden JSON; recognised from the content)',
    request: fileBody({}), responses: { 202: json(ImportAccepted, 'Accepted; runs in the background'), ...errors(400, 413, 415) },
  });
  r.post('/imports/bookmarks', async (c) => {
    const parts = await upload(c, UPLOAD_MAX_BYTES);
    return c.json(await s.imports.startBookmarks(c.get('tenantId'), parts.bytes), 202);
  });

  r.openAPIRegistry.registerPath({
    method: 'post', path: '/imports/highlights', operationId: 'importHighlights', tags: tag,
    summary: "Import highlights: Kindle's My Clippings.txt or a Readwise CSV export (recognised from the content); one node per book",
    request: fileBody({}), responses: { 202: json(ImportAccepted, 'Accepted; runs in the background'), ...errors(400, 413, 415) },
  });
  r.post('/imports/highlights', async (c) => {
    const parts = await upload(c, UPLOAD_MAX_BYTES);
    return c.json(await s.imports.startHighlights(c.get('tenantId'), parts.bytes), 202);
  });

  r.openapi(
    createRoute({ method: 'get', path: '/imports/{id}', tags: tag, summary: 'An import run: status, counts and problems', request: { params: IdParam }, responses: { 200: json(ImportRun), ...errors(404) } }),
    async (c) => c.json(await s.imports.get(c.get('tenantId'), c.req.valid('param').id), 200),
  );

  r.openAPIRegistry.registerPath({
    method: 'get', path: '/exports/markdown', operationId: 'exportMarkdown', tags: tag, summary: 'Every node as a Markdown file with YAML front matter, in PARA folders, as one zip',
    responses: { 200: { description: 'A zip archive', content: { 'application/zip': { schema: z.string().openapi({ type: 'string', format: 'binary' }) } } }, ...errors() },
  });
  r.get('/exports/markdown', async (c) => {
    const stream = await s.exports.markdownZip(c.get('tenantId'));
    const day = new Date(s.clock.now()).toISOString().slice(0, 10);
    return new Response(Readable.toWeb(stream) as unknown as ReadableStream, {
      status: 200,
      headers: { 'Content-Type': 'application/zip', 'Content-Disposition': `attachment; filename="rhizome-export-${day}.zip"` },
    });
  });

  r.openAPIRegistry.registerPath({
    method: 'get', path: '/exports/json', operationId: 'exportJson', tags: tag, summary: 'Everything (nodes, links, PARA items) as one JSON document',
    responses: { 200: json(z.object({ format: z.string(), version: z.number() }).passthrough()), ...errors() },
  });
  r.get('/exports/json', async (c) => c.json(await s.exports.json(c.get('tenantId')), 200));

  return r;
}
