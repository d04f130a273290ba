// Cold start, as a user runs it: the built server loads its pure-JavaScript packages from its
// own bundle (build.mjs, `bundled`), not file by file from node_modules. Loaded from there,
// they were 961 modules and half of the 2.2 s before /health answered (2026-12-02). The
// startup-imports test says what must not load at all; this says how the rest loads.
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChildServer, startServer, tempDataDir } from '../helpers/server-process.js';

const HOOKS = resolve('test/helpers/module-loads/register.mjs');
// What still comes from node_modules: the native addons (better-sqlite3, sqlite-vec) and
// the model packages, a handful of entry files (each CommonJS package counts once here).
const MAX_PACKAGE_MODULES = 20;

describe('the built server at start', () => {
  let server: ChildServer | undefined;
  afterAll(async () => void (await server?.stop()));

  it(`loads at most ${MAX_PACKAGE_MODULES} modules from node_modules before it answers`, async () => {
    server = await startServer(tempDataDir(), 0, { NODE_OPTIONS: `--import ${HOOKS}` });
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    const loads = server.stderr().split('\n').filter((l) => l.startsWith('module-load ')).map((l) => l.split(' ')[1]);
    const byPackage = new Map<string, number>();
    for (const p of loads) byPackage.set(p, (byPackage.get(p) ?? 0) + 1);
    // The hook works: the native SQLite binding is always loaded from node_modules.
    expect(byPackage.has('better-sqlite3')).toBe(true);
    expect(loads.length, JSON.stringify(Object.fromEntries(byPackage))).toBeLessThanOrEqual(MAX_PACKAGE_MODULES);
  });
});
