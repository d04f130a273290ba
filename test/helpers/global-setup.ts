// Tests that start child processes or the embedding worker need dist/: build it once.
import { execFileSync } from 'node:child_process';

export default function setup() {
  execFileSync(process.execPath, ['build.mjs'], { stdio: 'inherit' });
}
