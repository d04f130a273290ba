// Bundles the TypeScript sources into dist/, with the pure-JavaScript packages the server
// loads at start (`bundled` below). Every other npm package stays external: native addons
// (better-sqlite3, sqlite-vec, onnxruntime-node), pdf-parse, the model packages and the
// packages that read their own files at run time must be loaded from node_modules.
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { basename, join } from 'node:path';

const entryPoints = {
  rhizome: 'src/cli/main.ts',
  'embed-worker': 'src/embed/worker.ts',
  'keyword-read-worker': 'src/repos/keyword-read-worker.ts',
};
// The package (npm pack: scripts/prepack.mjs sets RHIZOME_PACK) carries no bench or eval code.
const forPackage = process.env.RHIZOME_PACK === '1';
if (!forPackage && existsSync('bench/run.ts')) entryPoints.bench = 'bench/run.ts';
if (!forPackage && existsSync('bench/load/run.ts')) entryPoints['bench-load'] = 'bench/load/run.ts';
if (!forPackage && existsSync('bench/tenants/run.ts')) entryPoints['bench-tenants'] = 'bench/tenants/run.ts';
if (!forPackage && existsSync('bench/serve-tuned.ts')) entryPoints['serve-tuned'] = 'bench/serve-tuned.ts';
if (!forPackage && existsSync('bench/eval/run.ts')) entryPoints.eval = 'bench/eval/run.ts';

// Loaded file by file from node_modules, these were 961 ES modules (chrono-node 266 with every
// locale, kysely 263, feedsmith 149, zod 95, hono 50) and a start of 1.6-2.4 s before /health
// answered on an empty data folder; bundled (tree-shaken into the chunks), 0.8-1.0 s
// (2026-12-02, docs/development.md). A package here must not resolve files of its own at run time.
const bundled = new Set([
  'chrono-node', 'kysely', 'feedsmith', 'zod', 'hono', '@hono/node-server', '@hono/zod-openapi',
  'p-queue', 'lru-cache', 'ulid', 'commander', 'stemmer', 'prom-client', 'rate-limiter-flexible',
  'ipaddr.js', 'busboy', 'eventsource-parser', 'cli-progress',
]);
const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8'));
const external = Object.keys(dependencies)
  .filter((d) => !bundled.has(d))
  .flatMap((d) => [d, `${d}/*`]);
// pg's optional native binding, never installed.
external.push('pg-native');

await build({
  entryPoints,
  outdir: 'dist',
  bundle: true,
  // Shared code goes into chunks so `rhizome <client command>` never loads the server.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  sourcemap: true,
  logLevel: 'warning',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});

// The dashboard: content-hashed bundles (served with a long immutable cache) and an
// index.html that names them (served no-cache), so a rebuild is picked up at once.
if (existsSync('src/web/main.tsx')) {
  const out = 'dist/web';
  // The graph layout's worker: its own file (a blob: worker would break the page's CSP),
  // content-hashed like the rest; the app learns its name through a define.
  const worker = await build({
    entryPoints: { 'fa2-worker': 'src/web/graph/fa2-worker.ts' },
    outdir: out,
    entryNames: '[name]-[hash]',
    bundle: true,
    metafile: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: true,
    logLevel: 'warning',
  });
  const workerFile = basename(Object.keys(worker.metafile.outputs)[0]);
  const result = await build({
    entryPoints: { app: 'src/web/main.tsx' },
    outdir: out,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    splitting: true,
    metafile: true,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    define: { __FA2_WORKER_URL__: JSON.stringify(`/assets/${workerFile}`) },
    loader: { '.css': 'css' },
    logLevel: 'warning',
  });
  const outputs = [...Object.keys(result.metafile.outputs).map((f) => basename(f)), workerFile];
  const js = outputs.find((f) => /^app-.*\.js$/.test(f));
  const css = outputs.find((f) => /^app-.*\.css$/.test(f));
  const html = readFileSync('src/web/index.html', 'utf8')
    .replace('%APP_JS%', `/assets/${js}`)
    .replace('%APP_CSS%', css ? `/assets/${css}` : '');
  writeFileSync(join(out, 'index.html'), html);
  // Gzipped once here, not at every server start (level 9 of the bundles and their maps
  // took ~250 ms of start-up): the server serves `name.gz` to clients that accept gzip.
  const zipped = [];
  for (const f of [...outputs, 'index.html']) {
    if (!/\.(js|css|map|html|svg)$/.test(f) || statSync(join(out, f)).size <= 1024) continue;
    writeFileSync(join(out, `${f}.gz`), gzipSync(readFileSync(join(out, f)), { level: 9 }));
    zipped.push(`${f}.gz`);
  }
  // Older hashed bundles are dropped; a running server keeps its own copy in memory.
  const keep = new Set([...outputs, ...zipped, 'index.html']);
  for (const f of readdirSync(out)) if (!keep.has(f)) rmSync(join(out, f), { force: true });
}
