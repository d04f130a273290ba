// A pooled connection cut by the server while it is checked out and idle (inside a
// transaction, waiting on the application): node-postgres emits 'error' on that client, and
// with no listener that is an uncaught exception, which ends `rhizome serve` (CI saw the
// server gone when its test cluster stopped mid-request). The store must turn it into a
// PgUnavailableError for the caller and a fresh connection for the next one.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PgUnavailableError } from '../../src/db/pg/errors.js';
import { PgStore } from '../../src/db/store/pg-store.js';
import { createTestDatabase, describePg, type TestPgDatabase } from './helpers.js';

describePg('a pooled connection lost while checked out', () => {
  let pgdb: TestPgDatabase;
  let db: PgStore;
  const uncaught: unknown[] = [];
  const onUncaught = (e: unknown) => uncaught.push(e);
  beforeEach(async () => {
    pgdb = await createTestDatabase({ migrated: true });
    db = new PgStore(pgdb.url);
    uncaught.length = 0;
    process.on('uncaughtException', onUncaught);
  });
  afterEach(async () => {
    process.off('uncaughtException', onUncaught);
    await db.close();
    await pgdb.drop();
  });

  it('is no uncaught exception: the transaction fails as unavailable and the next statement reconnects', async () => {
    const admin = await pgdb.client();
    const failed = db
      .withTx(async () => {
        const pid = (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
        // The server ends this session while the application holds the client between statements.
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        await new Promise((r) => setTimeout(r, 300));
        await db.query('SELECT 1');
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(await failed).toBeInstanceOf(PgUnavailableError);
    expect(uncaught).toEqual([]);
    expect((await db.query<{ n: number }>('SELECT 1 AS n')).rows[0].n).toBe(1);
  });
});
