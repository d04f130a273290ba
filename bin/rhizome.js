#!/usr/bin/env node
// Thin launcher: the CLI is bundled into dist/ by build.mjs (npm start builds first).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../dist/rhizome.js', import.meta.url));
if (!existsSync(entry)) {
  process.stderr.write('rhizome: dist/ is missing; run `npm run build` (npm start does it for you)\n');
  process.exit(1);
}
await import(entry);
