// The browsable API reference: Swagger UI served from the swagger-ui-dist package (no CDN:
// it must work offline) over the generated /api/v1/openapi.json.
import { Hono } from 'hono';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Rhizome API reference</title><link rel="stylesheet" href="/api/v1/docs/swagger-ui.css"></head>
<body><div id="ui"></div><script src="/api/v1/docs/swagger-ui-bundle.js"></script>
<script src="/api/v1/docs/init.js"></script>
</body></html>`;
// A file, not an inline script, so the page's Content-Security-Policy can forbid inline scripts.
const INIT = `window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#ui', deepLinking: true, persistAuthorization: true });\n`;

export function docsRoutes() {
  const r = new Hono();
  const dir = () => join(require.resolve('swagger-ui-dist/package.json'), '..');
  const cache = new Map<string, Buffer>();
  r.get('/docs', (c) => c.html(PAGE));
  r.get('/docs/init.js', (c) => c.body(INIT, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' }));
  r.get('/docs/:file', (c) => {
    const file = c.req.param('file');
    const type = ASSETS[file];
    if (!type) return c.notFound();
    if (!cache.has(file)) cache.set(file, readFileSync(join(dir(), file)));
    return c.body(new Uint8Array(cache.get(file)!), 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400' });
  });
  return r;
}
