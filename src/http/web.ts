// The dashboard at `/`: dist/web/index.html (no-cache, so a new build is seen at once) and
// its content-hashed bundles under /assets/ (cached for a year, immutable). Everything is
// read into memory once at start-up, gzipped once, so a rebuild of dist/ while the server
// runs cannot serve a page whose bundles have vanished. /api, /health and /mcp are untouched.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Context } from 'hono';
import { distPath } from '../paths.js';
import type { ExtraMount } from './app.js';

interface Asset {
  body: Buffer;
  gzip: Buffer | null;
  type: string;
  etag: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};
const IMMUTABLE = 'public, max-age=31536000, immutable';
const NO_CACHE = 'no-cache';
const HASHED = /-[A-Z0-9]{8}\.[a-z0-9.]+$/;

/** A file and its gzip: the build's `name.gz` when it wrote one (and it is current), else made now. */
function load(file: string, etag: string): Asset {
  const body = readFileSync(file);
  const type = TYPES[extname(file)] ?? 'application/octet-stream';
  const compressible = /text|json|svg/.test(type) && body.length > 1024;
  let gzip: Buffer | null = null;
  if (compressible) {
    const built = `${file}.gz`;
    gzip = existsSync(built) && statSync(built).mtimeMs >= statSync(file).mtimeMs ? readFileSync(built) : gzipSync(body, { level: 9 });
  }
  return { body, gzip, type, etag };
}

export function loadWebAssets(dir = distPath('web')): { index: Asset | null; assets: Map<string, Asset> } {
  const assets = new Map<string, Asset>();
  if (!existsSync(join(dir, 'index.html'))) return { index: null, assets };
  for (const name of readdirSync(dir)) {
    if (name === 'index.html' || name.endsWith('.gz') || !HASHED.test(name)) continue;
    assets.set(name, load(join(dir, name), `"${name}"`));
  }
  const index = load(join(dir, 'index.html'), '');
  index.etag = `"${hashOf(index.body)}"`;
  return { index, assets };
}

function hashOf(b: Buffer): string {
  return createHash('sha256').update(b).digest('base64url').slice(0, 16);
}

function send(c: Context, a: Asset, cache: string): Response {
  const headers: Record<string, string> = {
    'Content-Type': a.type,
    'Cache-Control': cache,
    ETag: a.etag,
    'X-Content-Type-Options': 'nosniff',
    Vary: 'Accept-Encoding',
  };
  if (c.req.header('if-none-match') === a.etag) return new Response(null, { status: 304, headers });
  const gz = a.gzip && /\bgzip\b/.test(c.req.header('accept-encoding') ?? '');
  if (gz) headers['Content-Encoding'] = 'gzip';
  const body = gz ? a.gzip! : a.body;
  headers['Content-Length'] = String(body.length);
  return new Response(c.req.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Rhizome</title>
<p style="font:16px system-ui;margin:3rem">The dashboard has not been built. Run <code>npm run build</code>
(or <code>npm start</code>, which builds first) and reload.</p>`;

export const webMount: ExtraMount = (app) => {
  const { index, assets } = loadWebAssets();
  const page = (c: Context) => {
    if (!index) return c.html(NOT_BUILT, 503, { 'Cache-Control': NO_CACHE });
    const res = send(c, index, NO_CACHE);
    // Its Content-Security-Policy (own origin only; nothing may frame it) is the pages' one in
    // security-headers.ts, which replaces any set here.
    res.headers.set('Referrer-Policy', 'no-referrer');
    return res;
  };
  app.on(['GET', 'HEAD'], '/', page);
  app.on(['GET', 'HEAD'], '/index.html', page);
  app.on(['GET', 'HEAD'], '/assets/:name', (c) => {
    const a = assets.get(c.req.param('name'));
    if (!a) return c.notFound();
    return send(c, a, IMMUTABLE);
  });
};
