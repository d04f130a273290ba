// Bundles the TypeScript sources into dist/. Every npm package stays external:
// native addons (better-sqlite3, sqlite-vec, onnxruntime-node), pdf-parse and the
// model packages must be loaded from node_modules at run time, not inlined.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';

const entryPoints = {
  rhizome: 'src/cli/main.ts',
  'embed-worker': 'src/embed/worker.ts',
};
if (existsSync('bench/run.ts')) entryPoints.bench = 'bench/run.ts';
if (existsSync('src/eval/run.ts')) entryPoints.eval = 'src/eval/run.ts';

await build({
  entryPoints,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});

if (existsSync('src/web/main.tsx')) {
  await build({
    entryPoints: { app: 'src/web/main.tsx' },
    outdir: 'dist/web',
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    loader: { '.css': 'css' },
    logLevel: 'warning',
  });
}
