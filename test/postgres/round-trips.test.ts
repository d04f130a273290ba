// Round trips of a transaction on PostgreSQL, counted as the writes its client makes to the
// server's socket (each is answered before the client writes again, unless held statements
// went with it): a transaction's BEGIN goes with its first statement, a later() write with
// the next one (COMMIT at the latest), and a transaction that sent nothing ends with nothing.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PgStore } from '../../src/db/store/pg-store.js';
import { sql } from '../../src/db/store/sql.js';
import { countSocketWrites, createTestDatabase, describePg, type TestPgDatabase } from './helpers.js';

describePg('round trips of a transaction on PostgreSQL', () => {
  let pgdb: TestPgDatabase;
  let db: PgStore;
  let writes: { n: number };
  beforeEach(async () => {
    pgdb = await createTestDatabase({ migrated: true });
    db = new PgStore(pgdb.url, { poolSize: 1 });
    writes = countSocketWrites(db);
    await db.value(sql`SELECT 1`); // the pool's one connection made and counted from here on
    writes.n = 0;
  });
  afterEach(async () => {
    await db.close();
    await pgdb.drop();
  });

  const add = (name: string) => sql`INSERT INTO tenants (id, name, created_at) VALUES (${`ten_${name}`}, ${name}, '2026-11-29T09:00:00.000Z')`;

  it('a write and a job: BEGIN with the INSERT, the held write with the COMMIT — two round trips, was four', async () => {
    await db.withTx(async () => {
      await db.run(add('one'));
      await db.later(add('two'));
    });
    expect(writes.n).toBe(2);
    expect(await db.value(sql`SELECT count(*)::int FROM tenants`)).toBe(2);
  });

  it('a read-only transaction: BEGIN with the read, then COMMIT; one that sent nothing costs nothing', async () => {
    await db.withTx(async () => void (await db.all(sql`SELECT * FROM tenants`)));
    expect(writes.n).toBe(2);
    writes.n = 0;
    await db.withTx(async () => {});
    await expect(db.withTx(async () => {
      await db.later(add('never'));
      throw new Error('no');
    })).rejects.toThrow('no');
    expect(writes.n).toBe(0);
    expect(await db.value(sql`SELECT count(*)::int FROM tenants`)).toBe(0);
  });

  it('a nested unit of work: its SAVEPOINT and RELEASE go with the statements around them', async () => {
    await db.withTx(async () => {
      await db.run(add('outer'));
      await db.withTx(async () => void (await db.run(add('inner'))));
    });
    // BEGIN+INSERT, SAVEPOINT+INSERT, RELEASE+COMMIT
    expect(writes.n).toBe(3);
    expect(await db.value(sql`SELECT count(*)::int FROM tenants`)).toBe(2);
  });
});
