// The PostgreSQL schema: numbered migrations that apply once (twice is a no-op, two
// processes at once are safe) and give every table the columns SQLite's schema has.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/open.js';
import { SCHEMA_VERSION } from '../../src/db/migrate.js';
import { migratePg, pgSchemaVersion, PG_SCHEMA_VERSION } from '../../src/db/pg/migrate.js';
import { COPY_TABLES, columnsOf } from '../../src/transfer/tables.js';
import { createTestDatabase, describePg, type TestPgDatabase } from './helpers.js';

describePg('PostgreSQL schema migrations', () => {
  let pgdb: TestPgDatabase;
  beforeEach(async () => {
    pgdb = await createTestDatabase();
  });
  afterEach(() => pgdb.drop());

  const tables = async (c: Awaited<ReturnType<TestPgDatabase['client']>>) =>
    (await c.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1")).rows.map((r) => r.table_name);

  it('applies every step once; a second run changes nothing', async () => {
    const c = await pgdb.client();
    expect(await pgSchemaVersion(c)).toBe(0);
    await migratePg(c);
    expect(await pgSchemaVersion(c)).toBe(PG_SCHEMA_VERSION);
    expect(PG_SCHEMA_VERSION).toBe(SCHEMA_VERSION);
    const before = await tables(c);
    const indexes = (await c.query("SELECT count(*)::int AS n FROM pg_indexes WHERE schemaname = 'public'")).rows[0].n;
    await migratePg(c);
    expect(await pgSchemaVersion(c)).toBe(PG_SCHEMA_VERSION);
    expect(await tables(c)).toEqual(before);
    expect((await c.query("SELECT count(*)::int AS n FROM pg_indexes WHERE schemaname = 'public'")).rows[0].n).toBe(indexes);
  });

  it('two processes migrating at once: one migrates, the other finds it done', async () => {
    const [a, b] = [await pgdb.client(), await pgdb.client()];
    await Promise.all([migratePg(a), migratePg(b)]);
    expect(await pgSchemaVersion(a)).toBe(PG_SCHEMA_VERSION);
  });

  it('has the same columns, in the same order, as the SQLite schema, and tenant_id on tenant tables', async () => {
    const c = await pgdb.client();
    await migratePg(c);
    const sqlite = openDatabase(':memory:');
    for (const t of COPY_TABLES) {
      const pgCols = (await c.query('SELECT column_name FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position', [t.name])).rows.map((r) => r.column_name);
      expect(pgCols, t.name).toEqual(columnsOf(sqlite, t.name));
    }
    sqlite.close();
    const withoutTenant = (await c.query(
      `SELECT table_name FROM information_schema.tables t WHERE table_schema = 'public' AND NOT EXISTS
         (SELECT 1 FROM information_schema.columns c WHERE c.table_name = t.table_name AND c.column_name IN ('tenant_id'))
       ORDER BY 1`,
    )).rows.map((r) => r.table_name);
    // Install-wide tables only (tenants is keyed by its id; rate_limiter's keys name what they count: an address, a key, a tenant).
    expect(withoutTenant).toEqual(['embedding_calibrations', 'embedding_spaces', 'oauth_clients', 'oidc_flows', 'operator_keys', 'rate_limiter', 'rhizome_schema', 'server_meta', 'tenants']);
  });

  it('keeps the constraints: status checks, case-insensitive e-mail, one queued job per dedupe key', async () => {
    const c = await pgdb.client();
    await migratePg(c);
    await c.query("INSERT INTO tenants (id, name, created_at) VALUES ('t1', 'one', 'now')");
    expect((await c.query("SELECT total_nodes FROM tenant_stats WHERE tenant_id = 't1'")).rows[0].total_nodes).toBe(0);
    await expect(c.query("INSERT INTO nodes (id, tenant_id, title, status, created_at, updated_at) VALUES ('n', 't1', 'x', 'bogus', 'now', 'now')")).rejects.toThrow(/check/);
    await c.query("INSERT INTO users (id, tenant_id, email, created_at) VALUES ('u1', 't1', 'Ada@Example.com', 'now')");
    await expect(c.query("INSERT INTO users (id, tenant_id, email, created_at) VALUES ('u2', 't1', 'ada@example.COM', 'now')")).rejects.toThrow(/duplicate/);
    const job = "INSERT INTO jobs (tenant_id, kind, dedupe_key, run_after, created_at, updated_at) VALUES ('t1', 'embed', 'k', 0, 0, 0)";
    await c.query(job);
    await expect(c.query(job)).rejects.toThrow(/duplicate/);
    await c.query("INSERT INTO nodes (id, tenant_id, title, status, created_at, updated_at) VALUES ('n1', 't1', 'x', 'validated', 'now', 'now')");
    expect((await c.query("SELECT total_nodes, validated_nodes FROM tenant_stats WHERE tenant_id = 't1'")).rows[0]).toEqual({ total_nodes: 1, validated_nodes: 1 });
  });
});
