// rhizome migrate's refusals: each is one line on stderr, an exit code, and nothing
// created or changed on either side.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/open.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { createTestDatabase, describePg, type TestPgDatabase } from './helpers.js';

function rhizome(args: string[], dataDir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/rhizome.js', ...args], { env: { ...process.env, RHIZOME_DATA_DIR: dataDir, RHIZOME_LOG: 'silent' } }, (e, stdout, stderr) =>
      resolve({ code: e ? Number((e as { code?: number }).code) : 0, stdout, stderr }),
    );
  });
}

/** A port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

const oneLine = (s: string) => s.trim().split('\n').length === 1;

describePg('rhizome migrate refusals', () => {
  let pgdb: TestPgDatabase;
  const dir = mkdtempSync(join(tmpdir(), 'rz-migrate-faults-'));
  const sqlite = join(dir, 'rhizome.db');

  beforeAll(async () => {
    pgdb = await createTestDatabase();
    const db = openDatabase(sqlite);
    db.prepare("INSERT INTO tenants (id, name, created_at) VALUES ('ten_1', 'one', 'now')").run();
    db.close();
  });
  afterAll(() => pgdb?.drop());

  it('PostgreSQL unreachable: one line, exit 6, no SQLite file created', async () => {
    const url = `postgres://postgres@127.0.0.1:${await closedPort()}/rhizome`;
    const to = await rhizome(['migrate', '--to', url, '--sqlite', sqlite], dir);
    expect(to.code).toBe(EXIT.unavailable);
    expect(oneLine(to.stderr)).toBe(true);
    expect(to.stderr).toMatch(/^rhizome: cannot reach PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:\d+\/rhizome: connection refused$/m);
    const target = join(dir, 'never.db');
    const from = await rhizome(['migrate', '--from', url, '--sqlite', target], dir);
    expect(from.code).toBe(EXIT.unavailable);
    expect(oneLine(from.stderr)).toBe(true);
    expect(existsSync(target)).toBe(false);
  });

  it('a password in the URL never appears in the message', async () => {
    const r = await rhizome(['migrate', '--to', `postgres://u:s3cret@127.0.0.1:${await closedPort()}/x`, '--sqlite', sqlite], dir);
    expect(r.stderr).not.toContain('s3cret');
  });

  it('a non-empty target is refused in one line and left as it was', async () => {
    const ok = await rhizome(['migrate', '--to', pgdb.url, '--sqlite', sqlite], dir);
    expect(ok.code).toBe(0);
    const c = await pgdb.client();
    await c.query("INSERT INTO tenants (id, name, created_at) VALUES ('ten_2', 'two', 'now')");
    const again = await rhizome(['migrate', '--to', pgdb.url, '--sqlite', sqlite], dir);
    expect(again.code).toBe(EXIT.conflict);
    expect(oneLine(again.stderr)).toBe(true);
    expect(again.stderr).toMatch(/not empty/);
    expect((await c.query('SELECT id FROM tenants ORDER BY id')).rows.map((r) => r.id)).toEqual(['ten_1', 'ten_2']);
  });

  it('usage errors: both or neither direction, a non-postgres URL, an existing SQLite target, a missing source', async () => {
    expect((await rhizome(['migrate'], dir)).code).toBe(EXIT.usage);
    expect((await rhizome(['migrate', '--to', pgdb.url, '--from', pgdb.url], dir)).code).toBe(EXIT.usage);
    expect((await rhizome(['migrate', '--to', 'mysql://x/y'], dir)).code).toBe(EXIT.usage);
    const exists = await rhizome(['migrate', '--from', pgdb.url, '--sqlite', sqlite], dir);
    expect(exists.code).toBe(EXIT.conflict);
    expect(exists.stderr).toMatch(/already exists/);
    const missing = await rhizome(['migrate', '--to', pgdb.url, '--sqlite', join(dir, 'nope.db')], dir);
    expect(missing.code).toBe(EXIT.usage);
    expect(oneLine(missing.stderr)).toBe(true);
  });

  it('a failure after the schema was created rolls everything back (nothing half-created)', async () => {
    const fresh = await createTestDatabase();
    try {
      // A table the schema wants to create already exists, empty: migration step 1 fails midway.
      const c = await fresh.client();
      await c.query('CREATE TABLE links (x int)');
      const r = await rhizome(['migrate', '--to', fresh.url, '--sqlite', sqlite], dir);
      expect(r.code).toBe(EXIT.error);
      expect(oneLine(r.stderr)).toBe(true);
      const tables = (await c.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")).rows.map((x) => x.table_name);
      expect(tables).toEqual(['links']);
    } finally {
      await fresh.drop();
    }
  });
});
