// Upgrades keep data: the committed database of an earlier release (make-fixture.ts) is
// opened with this code, and every row of every table a user fills must still be there with
// the same values (columns a later step adds are not compared); the server then serves it.
// Before a schema change the file is copied to <data>/backups/, and the last few copies kept.
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSteps, SCHEMA_VERSION } from '../../src/db/migrate.js';
import { openDatabase } from '../../src/db/open.js';
import { backupBeforeUpgrade, KEEP_UPGRADE_BACKUPS, upgradeBackupDir } from '../../src/db/upgrade-backup.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

const FIXTURES = join('test', 'fixtures', 'upgrade');
const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith('.db'));
/** Internal tables (full-text and vector index shadows) are rebuilt by the code, not user records. */
const internal = (t: string) => t.startsWith('sqlite_') || /_fts_|^node_vectors_|^nodes_fts/.test(t);

type Row = Record<string, unknown>;
function userTables(db: Database.Database): string[] {
  return (db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all() as { name: string; sql: string }[])
    .filter((t) => !internal(t.name) && !/^CREATE VIRTUAL/i.test(t.sql))
    .map((t) => t.name);
}
function keyOf(db: Database.Database, table: string): string[] {
  const pk = (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string; pk: number }[]).filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  return pk.length ? pk.map((c) => c.name) : ['rowid'];
}
function snapshot(file: string) {
  const db = new Database(file, { readonly: true });
  const out = new Map<string, { key: string[]; rows: Row[] }>();
  for (const t of userTables(db)) {
    const key = keyOf(db, t);
    out.set(t, { key, rows: db.prepare(`SELECT ${key[0] === 'rowid' ? 'rowid, ' : ''}* FROM "${t}"`).all() as Row[] });
  }
  const version = db.pragma('user_version', { simple: true }) as number;
  db.close();
  return { tables: out, version };
}

describe.each(fixtures)('upgrade from %s', (fixture) => {
  const dir = mkdtempSync(join(tmpdir(), 'rhizome-upgrade-'));
  const file = join(dir, 'rhizome.db');
  copyFileSync(join(FIXTURES, fixture), file);
  const before = snapshot(file);
  let t: TestApp | undefined;
  afterAll(async () => t?.close());

  it('migrates to the current schema and every record survives with its values', () => {
    const db = openDatabase(file);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      let compared = 0;
      for (const [table, { key, rows }] of before.tables) {
        const cols = new Set((db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name));
        expect(cols.size, `table ${table} is gone`).toBeGreaterThan(0);
        const find = db.prepare(`SELECT ${key[0] === 'rowid' ? 'rowid, ' : ''}* FROM "${table}" WHERE ${key.map((k) => `${k} IS ?`).join(' AND ')}`);
        for (const row of rows) {
          const now = find.get(...key.map((k) => row[k])) as Row | undefined;
          expect(now, `${table} ${key.map((k) => row[k]).join('/')} is gone`).toBeDefined();
          for (const [col, value] of Object.entries(row)) if (cols.has(col) || col === 'rowid') expect(now![col], `${table}.${col}`).toEqual(value);
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(20);
    } finally {
      db.close();
    }
  });

  it('copied the old file to backups/ before a schema change', () => {
    const dir = upgradeBackupDir(file);
    const copies = existsSync(dir) ? readdirSync(dir) : [];
    if (before.version === SCHEMA_VERSION) expect(copies).toEqual([]); // nothing to change, nothing copied
    else expect(copies).toEqual([expect.stringMatching(new RegExp(`^rhizome-v${before.version}-.*\\.db$`))]);
  });

  it('serves the old records: list, read, links, search', async () => {
    t = await makeTestApp({ dbPath: file });
    const res = await t.req('GET', '/api/v1/nodes');
    expect(res.status, await res.clone().text()).toBe(200);
    const list = (await res.json()) as { data: { id: string; title: string }[] };
    const titles = list.data.map((n) => n.title);
    expect(titles).toEqual(expect.arrayContaining(['Zone 2 training', 'Long runs', 'Unicode — café, 日本語, emoji 🧠']));
    expect(titles).not.toContain('Beta tenant note');
    const zone = list.data.find((n) => n.title === 'Zone 2 training')!;
    const links = (await (await t.req('GET', `/api/v1/nodes/${zone.id}/links`)).json()) as { links: { type: string }[] };
    expect(links.links.map((l) => l.type)).toContain('supports');
    const found = (await (await t.req('GET', '/api/v1/nodes?query=conversational%20pace')).json()) as { data: { title: string }[] };
    expect(found.data.map((r) => r.title)).toContain('Zone 2 training');
  });
});

describe('backup before a schema change', () => {
  it('copies the file as it was, owner-only, before the first new step runs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rhizome-upgrade-'));
    const db = new Database(join(dir, 'rhizome.db'));
    const steps = [(d: Database.Database) => d.exec("CREATE TABLE notes (v TEXT); INSERT INTO notes VALUES ('old')"), (d: Database.Database) => d.exec("UPDATE notes SET v = 'new'")];
    runSteps(db, steps.slice(0, 1));
    expect(readdirSync(dir)).not.toContain('backups'); // a new database: nothing to keep
    runSteps(db, steps);
    db.close();
    const [copy] = readdirSync(join(dir, 'backups'));
    expect(copy).toMatch(/^rhizome-v1-\d{8}T\d{6}Z\.db$/);
    expect(statSync(join(dir, 'backups', copy)).mode & 0o777).toBe(0o600);
    const old = new Database(join(dir, 'backups', copy), { readonly: true });
    expect(old.prepare('SELECT v FROM notes').pluck().get()).toBe('old');
    expect(old.pragma('user_version', { simple: true })).toBe(1);
    old.close();
  });

  it(`keeps the newest ${KEEP_UPGRADE_BACKUPS} copies`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'rhizome-upgrade-'));
    const db = new Database(join(dir, 'rhizome.db'));
    db.exec('CREATE TABLE t (x)');
    const made = [1, 2, 3, 4, 5].map((d) => backupBeforeUpgrade(db, d, new Date(Date.UTC(2026, 0, d)))!);
    db.close();
    writeFileSync(join(dir, 'backups', 'my-own-copy.db'), ''); // not ours: left alone
    backupBeforeUpgrade(new Database(join(dir, 'rhizome.db')), 6, new Date(Date.UTC(2026, 0, 6)));
    const left = readdirSync(join(dir, 'backups')).sort();
    expect(left).toEqual(['my-own-copy.db', 'rhizome-v4-20260104T000000Z.db', 'rhizome-v5-20260105T000000Z.db', 'rhizome-v6-20260106T000000Z.db']);
    expect(made[0]).toMatch(/rhizome-v1-20260101T000000Z\.db$/);
  });
});
