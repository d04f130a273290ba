// Cold start (issue 17): `rhizome serve` must not load the parsers, SDKs and drivers that
// only some requests need — together they were ~40% of the time to /health. This walks the
// static imports esbuild bundles from the CLI and the server module (dynamic imports are
// where loading on first use is allowed) and names the chain that pulls a heavy package in.
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const LOADED_ON_FIRST_USE = [
  'linkedom',
  '@mozilla/readability',
  'turndown',
  'pdf-parse',
  'mammoth',
  'word-extractor',
  'tesseract.js',
  'image-size',
  'file-type',
  'yauzl',
  'yazl',
  'yaml',
  'csv-parse',
  'mdast-util-from-markdown',
  'openid-client',
  'pg',
  '@modelcontextprotocol/sdk',
  'feedsmith',
];

async function staticPackages(entry: string): Promise<Map<string, string>> {
  const r = await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', packages: 'external', write: false, metafile: true, outdir: 'unused', logLevel: 'silent' });
  const inputs = r.metafile.inputs;
  const from = new Map<string, string | null>([[entry, null]]);
  const queue = [entry];
  const packages = new Map<string, string>();
  const chain = (f: string | null): string => (f ? `${chain(from.get(f) ?? null)} > ${f}` : '');
  while (queue.length) {
    const f = queue.shift()!;
    for (const im of inputs[f]?.imports ?? []) {
      if (im.kind === 'dynamic-import') continue;
      if (im.external) {
        if (!packages.has(im.path)) packages.set(im.path, chain(f));
      } else if (!from.has(im.path)) {
        from.set(im.path, f);
        queue.push(im.path);
      }
    }
  }
  return packages;
}

describe('start-up imports', () => {
  it.each(['src/cli/main.ts', 'src/server.ts'])('%s loads no heavy package before it is needed', async (entry) => {
    const packages = await staticPackages(entry);
    const heavy = [...packages].filter(([p]) => LOADED_ON_FIRST_USE.some((h) => p === h || p.startsWith(`${h}/`))).map(([p, via]) => `${p} via ${via.slice(3)}`);
    expect(heavy).toEqual([]);
    // The walk itself works: the server's own framework is found.
    if (entry === 'src/server.ts') expect([...packages.keys()]).toContain('@hono/node-server');
  });
});
