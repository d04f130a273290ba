// Builds the browser extension into dist/extension/ (load it unpacked) and
// dist/rhizome-extension.zip (the same files, for Firefox's about:debugging or a store).
// Run from the repository root: `npm run build:extension`. The PNG icons are the
// dashboard's logo (icons/icon.svg) rendered once at 16, 32, 48 and 128 px and committed.
import { build } from 'esbuild';
import { zipSync } from 'fflate';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const out = join(root, 'dist/extension');
const zipFile = join(root, 'dist/rhizome-extension.zip');

export async function buildExtension() {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: ['popup', 'options', 'background'].map((n) => join(here, 'src', `${n}.ts`)),
    outdir: out,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    // Chromium 120+ and Firefox 128+ (the manifest's minimum).
    target: ['chrome120', 'firefox128'],
    legalComments: 'none',
    logLevel: 'warning',
  });
  cpSync(join(here, 'static'), out, { recursive: true });
  cpSync(join(here, 'icons'), join(out, 'icons'), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(here, 'manifest.json'), 'utf8'));
  manifest.version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');

  const files = {};
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else files[relative(out, p).split('\\').join('/')] = [readFileSync(p), { mtime: new Date('2000-01-01T00:00:00Z') }];
    }
  };
  walk(out);
  writeFileSync(zipFile, zipSync(files, { level: 9 }));
  return { dir: out, zip: zipFile, files: Object.keys(files) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = await buildExtension();
  console.log(`extension: ${relative(root, r.dir)}/ (${r.files.length} files) and ${relative(root, r.zip)}`);
}
