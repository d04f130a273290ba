// `rhizome doctor` on PostgreSQL (RHIZOME_DATABASE_URL): the database line reports the
// connection and the schema version, or what to do when PostgreSQL is out of reach.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PG_SCHEMA_VERSION } from '../../src/db/pg/migrate.js';
import { cli, tempDataDir } from '../helpers/server-process.js';
import { createTestDatabase, describePg, type TestPgDatabase } from './helpers.js';

const dbLine = (out: string) => out.split('\n').find((l) => /^. PostgreSQL /.test(l)) ?? out;

describePg('rhizome doctor on PostgreSQL', () => {
  const dbs: TestPgDatabase[] = [];
  afterAll(async () => {
    for (const d of dbs) await d.drop();
  });
  const doctor = (url: string) => cli(['doctor'], { RHIZOME_DATA_DIR: tempDataDir(), RHIZOME_CONFIG_DIR: join(tempDataDir(), 'config'), RHIZOME_PORT: '0', RHIZOME_DATABASE_URL: url, RHIZOME_TOKEN: '' });

  it('a migrated database: ✓ with its schema version', async () => {
    const d = await createTestDatabase({ migrated: true });
    dbs.push(d);
    const r = await doctor(d.url);
    expect(dbLine(r.stdout)).toMatch(new RegExp(`^✓ PostgreSQL .*: reachable, schema ${PG_SCHEMA_VERSION} \\(current\\)$`));
  });

  it('an empty database: ✓, the next start creates the schema', async () => {
    const d = await createTestDatabase();
    dbs.push(d);
    expect(dbLine((await doctor(d.url)).stdout)).toMatch(/^✓ PostgreSQL .*: reachable, schema 0 — the next start upgrades it/);
  });

  it('out of reach: ✗, the password masked, and what to do', async () => {
    const r = await doctor('postgres://rhizome:s3cret@127.0.0.1:1/rhizome');
    expect(r.code).toBe(1);
    const line = dbLine(r.stdout);
    expect(line).toMatch(/^✗ PostgreSQL .* — start PostgreSQL or fix RHIZOME_DATABASE_URL$/);
    expect(line).not.toContain('s3cret');
  });
});
