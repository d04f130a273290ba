// Writes the upgrade fixture (test/upgrade/make-fixture.ts) with the code of this checkout.
// Run it on a release, before any schema change: `node scripts/make-upgrade-fixture.mjs`.
import { build } from 'esbuild';
import { mkdirSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

mkdirSync('.ci-out', { recursive: true });
const outfile = '.ci-out/make-fixture.mjs';
await build({
  entryPoints: ['test/upgrade/make-fixture.ts'], outfile, bundle: true, platform: 'node', format: 'esm',
  target: 'node20', packages: 'external', logLevel: 'warning',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
const r = spawnSync(process.execPath, [outfile, ...process.argv.slice(2)], { stdio: 'inherit' });
rmSync(outfile, { force: true });
process.exit(r.status ?? 1);
