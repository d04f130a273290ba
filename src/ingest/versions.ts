// Provenance names each library that touched a capture together with its version.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const req = createRequire(import.meta.url);
const cache = new Map<string, string>();

/** "name@version" of an installed package ("name" alone if its manifest is unreadable). */
export function lib(name: string): string {
  let v: string = cache.get(name) ?? '';
  if (!cache.has(name)) {
    try {
      let dir = dirname(req.resolve(name));
      for (let i = 0; i < 6; i++) {
        try {
          const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
          if (pkg.name === name && pkg.version) {
            v = pkg.version;
            break;
          }
        } catch {
          /* keep walking up */
        }
        dir = dirname(dir);
      }
    } catch {
      /* not resolvable */
    }
    cache.set(name, v);
  }
  return v ? `${name}@${v}` : name;
}
