// After `npm pack` / `npm publish`: the shrinkwrap prepack.mjs made from package-lock.json
// goes again (the repository keeps one lockfile, package-lock.json).
import { rmSync } from 'node:fs';

rmSync('npm-shrinkwrap.json', { force: true });
