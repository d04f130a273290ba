// `npm pack` / `npm publish`: a clean dist/ with what a user runs (no bench or eval code),
// the dashboard's assets and the browser extension's zip. package.json `files` picks them.
// package-lock.json, the repository's lockfile, goes in as npm-shrinkwrap.json (npm publishes
// no package-lock): `npx rhizome` and global installs get the tree CI tested. postpack.mjs
// removes the copy.
// Build output goes to stderr: `npm pack --json` prints its report on stdout.
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
const run = (script) => execFileSync(process.execPath, [script], { stdio: ['ignore', 2, 2], env: { ...process.env, RHIZOME_PACK: '1' } });
run('build.mjs');
run('extension/build.mjs');
copyFileSync('package-lock.json', 'npm-shrinkwrap.json');
