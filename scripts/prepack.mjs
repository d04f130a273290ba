// `npm pack` / `npm publish`: a clean dist/ with what a user runs (no bench or eval code),
// the dashboard's assets and the browser extension's zip. package.json `files` picks them.
// Build output goes to stderr: `npm pack --json` prints its report on stdout.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
const run = (script) => execFileSync(process.execPath, [script], { stdio: ['ignore', 2, 2], env: { ...process.env, RHIZOME_PACK: '1' } });
run('build.mjs');
run('extension/build.mjs');
