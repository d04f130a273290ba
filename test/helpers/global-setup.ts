// Tests that start child processes or the embedding worker need dist/: build it once.
// Servers started by tests record themselves for the CLI (client/server-records.ts) in a
// config folder of this run, never in the user's own ~/.config/rhizome.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup() {
  process.env.RHIZOME_CONFIG_DIR ??= mkdtempSync(join(tmpdir(), 'rhizome-test-config-'));
  execFileSync(process.execPath, ['build.mjs'], { stdio: 'inherit' });
}
