// Locates files that ship with the package (schema.sql, dist/, web assets) whether the
// code runs bundled from dist/ or from src/ under vitest.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'schema.sql'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the Rhizome package root (schema.sql)');
    dir = up;
  }
  root = dir;
  return dir;
}

export const schemaPath = () => join(packageRoot(), 'schema.sql');
export const distPath = (...parts: string[]) => join(packageRoot(), 'dist', ...parts);

export function packageVersion(): string {
  return JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')).version;
}
