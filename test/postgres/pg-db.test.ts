// SQLite's repositories, unchanged, on PostgreSQL through PgDb (better-sqlite3's API over
// the synchronous bridge, SQL translated): the tenants and API-key repositories against
// the migrated PostgreSQL schema, and transactions through db.transaction().
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../../src/db/open.js';
import { migratePg } from '../../src/db/pg/migrate.js';
import { PgDb } from '../../src/db/pg/pg-db.js';
import { PgQueryError, PgSync } from '../../src/db/pg/sync-client.js';
import { ApiKeysRepo } from '../../src/repos/api-keys.repo.js';
import { TenantsRepo } from '../../src/repos/tenants.repo.js';
import { createTestDatabase, describePg, type TestPgDatabase } from './helpers.js';

describePg('PgDb: repositories written for SQLite, on PostgreSQL', () => {
  let pgdb: TestPgDatabase;
  let db: PgDb;
  beforeEach(async () => {
    pgdb = await createTestDatabase();
    await migratePg(await pgdb.client());
    db = new PgDb(new PgSync(pgdb.url));
  });
  afterEach(async () => {
    db.close();
    await pgdb.drop();
  });

  it('TenantsRepo: insert, find, count, list, install settings kept once', () => {
    const tenants = new TenantsRepo(db as unknown as Db);
    expect(tenants.count()).toBe(0);
    tenants.insert({ id: 'ten_b', name: 'beta', created_at: '2026-11-23T10:00:00.000Z' });
    tenants.insert({ id: 'ten_a', name: 'alpha', created_at: '2026-11-23T09:00:00.000Z' });
    expect(tenants.count()).toBe(2);
    expect(tenants.findByName('beta')).toEqual({ id: 'ten_b', name: 'beta', created_at: '2026-11-23T10:00:00.000Z' });
    expect(tenants.findById('ten_zzz')).toBeUndefined();
    expect(tenants.list().map((t) => t.name)).toEqual(['alpha', 'beta']);
    tenants.setMetaOnce('secret', 'first');
    tenants.setMetaOnce('secret', 'second');
    expect(tenants.getMeta('secret')).toBe('first');
    expect(() => tenants.insert({ id: 'ten_c', name: 'beta', created_at: '2026-11-23T11:00:00.000Z' })).toThrow(PgQueryError);
  });

  it('ApiKeysRepo: named parameters, a BLOB back as a Buffer, changes counted', () => {
    new TenantsRepo(db as unknown as Db).insert({ id: 'ten_a', name: 'alpha', created_at: '2026-11-23T09:00:00.000Z' });
    const keys = new ApiKeysRepo(db as unknown as Db);
    const hmac = Buffer.from('00ff10ab'.repeat(8), 'hex');
    keys.insert({ id: 'key_1', tenant_id: 'ten_a', name: 'laptop', secret_hmac: hmac, created_at: '2026-11-23T09:00:01.000Z' });
    const found = keys.findActive('key_1')!;
    expect(Buffer.isBuffer(found.secret_hmac)).toBe(true);
    expect(found.secret_hmac.equals(hmac)).toBe(true);
    keys.touch('ten_a', 'key_1', '2026-11-23T09:05:00.000Z');
    expect(keys.list('ten_a')).toEqual([{ id: 'key_1', name: 'laptop', created_at: '2026-11-23T09:00:01.000Z', last_used_at: '2026-11-23T09:05:00.000Z' }]);
    expect(keys.revoke('ten_other', 'key_1', '2026-11-23T10:00:00.000Z')).toBe(false); // another tenant's key
    expect(keys.revoke('ten_a', 'key_1', '2026-11-23T10:00:00.000Z')).toBe(true);
    expect(keys.revoke('ten_a', 'key_1', '2026-11-23T10:00:00.000Z')).toBe(false);
    expect(keys.findActive('key_1')).toBeUndefined();
  });

  it('db.transaction() is all or nothing, nested calls are savepoints', () => {
    const tenants = new TenantsRepo(db as unknown as Db);
    const both = db.transaction((a: string, b: string) => {
      tenants.insert({ id: `ten_${a}`, name: a, created_at: '2026-11-23T09:00:00.000Z' });
      tenants.insert({ id: `ten_${b}`, name: b, created_at: '2026-11-23T09:00:00.000Z' });
    });
    both('one', 'two');
    expect(() => both('three', 'one')).toThrow(PgQueryError); // 'one' exists: 'three' is undone too
    expect(tenants.list().map((t) => t.name).sort()).toEqual(['one', 'two']);
  });
});
