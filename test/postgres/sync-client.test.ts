// PgSync: synchronous calls to a real PostgreSQL through the worker-thread bridge — values
// in and out, PostgreSQL's errors with their SQLSTATE, transactions and savepoints, a
// server that cannot be reached, and a connection killed under it that comes back.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PgQueryError, PgSync, PgUnavailableError } from '../../src/db/pg/sync-client.js';
import { createTestDatabase, describePg, type TestPgDatabase } from './helpers.js';

describePg('PgSync, the synchronous PostgreSQL bridge', () => {
  let pgdb: TestPgDatabase;
  let db: PgSync;
  beforeEach(async () => {
    pgdb = await createTestDatabase();
    db = new PgSync(pgdb.url);
    db.query('CREATE TABLE t (id bigint PRIMARY KEY, name text UNIQUE, blob bytea, note text)');
  });
  afterEach(async () => {
    db.close();
    await pgdb.drop();
  });

  it('answers synchronously, with parameters of every kind Rhizome stores', () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const ins = db.query('INSERT INTO t VALUES ($1, $2, $3, $4) RETURNING id', [1_700_000_000_123, 'ünïcode ✓', bytes, null]);
    expect(ins.rowCount).toBe(1);
    expect(ins.rows).toEqual([{ id: 1_700_000_000_123 }]);
    const [row] = db.query<{ id: number; name: string; blob: Uint8Array; note: null }>('SELECT * FROM t WHERE id = $1', [1_700_000_000_123]).rows;
    expect(row.id).toBe(1_700_000_000_123);
    expect(row.name).toBe('ünïcode ✓');
    expect(Buffer.from(row.blob)).toEqual(bytes);
    expect(row.note).toBeNull();
    // The same statement again (prepared once, reused by name) and one without parameters.
    expect(db.query('SELECT name FROM t WHERE id = $1', [1_700_000_000_123]).rows).toEqual([{ name: 'ünïcode ✓' }]);
    expect(db.query('SELECT count(*)::int AS n FROM t').rows).toEqual([{ n: 1 }]);
  });

  it("throws PostgreSQL's errors with their SQLSTATE, and the connection goes on", () => {
    db.query('INSERT INTO t (id, name) VALUES ($1, $2)', [1, 'a']);
    const dup = (() => {
      try {
        db.query('INSERT INTO t (id, name) VALUES ($1, $2)', [2, 'a']);
      } catch (e) {
        return e;
      }
    })();
    expect(dup).toBeInstanceOf(PgQueryError);
    expect((dup as PgQueryError).code).toBe('23505');
    expect(() => db.query('SELEC 1')).toThrow(PgQueryError);
    expect(db.query('SELECT count(*)::int AS n FROM t').rows[0]).toEqual({ n: 1 });
  });

  it('commits a transaction, rolls one back when it throws, and nests as savepoints', () => {
    db.transaction(() => db.query('INSERT INTO t (id) VALUES (1)'));
    expect(() =>
      db.transaction(() => {
        db.query('INSERT INTO t (id) VALUES (2)');
        throw new Error('changed my mind');
      }),
    ).toThrow('changed my mind');
    db.transaction(() => {
      db.query('INSERT INTO t (id) VALUES (3)');
      expect(db.inTransaction).toBe(true);
      expect(() =>
        db.transaction(() => {
          db.query('INSERT INTO t (id) VALUES (4)');
          db.query('INSERT INTO t (id) VALUES (1)'); // duplicate key: the savepoint goes
        }),
      ).toThrow(PgQueryError);
      db.query('INSERT INTO t (id) VALUES (5)');
    });
    expect(db.inTransaction).toBe(false);
    expect(db.query<{ id: number }>('SELECT id FROM t ORDER BY id').rows.map((r) => r.id)).toEqual([1, 3, 5]);
  });

  // BEGIN is not a call of its own: it goes to PostgreSQL with the transaction's first
  // statement (one bridge round trip fewer per write).
  it('opens a transaction with its first statement, a savepoint or a failing one included', () => {
    const [a, b] = db.transaction(() => {
      const first = db.query<{ t: string }>('SELECT now()::text AS t').rows[0].t;
      db.query('SELECT pg_sleep(0.02)');
      return [first, db.query<{ t: string }>('SELECT now()::text AS t').rows[0].t];
    });
    expect(a).toBe(b); // now() is the transaction's start: the first statement was inside it
    expect(db.transaction(() => 7)).toBe(7); // nothing ran: nothing to commit
    expect(() => db.transaction(() => db.query('SELEC 1'))).toThrow(PgQueryError);
    db.transaction(() => {
      // SAVEPOINT outside a transaction block would be an error of its own.
      expect(() =>
        db.transaction(() => {
          db.query('INSERT INTO t (id) VALUES (1)');
          throw new Error('not this one');
        }),
      ).toThrow('not this one');
      db.query('INSERT INTO t (id) VALUES (2)');
    });
    expect(db.inTransaction).toBe(false);
    expect(db.query<{ id: number }>('SELECT id FROM t ORDER BY id').rows.map((r) => r.id)).toEqual([2]);
    expect(db.query<{ s: string }>("SELECT current_setting('transaction_isolation') AS s, now() = statement_timestamp() AS alone").rows[0]).toMatchObject({ alone: true });
  });

  // defer(): a statement nobody reads the answer of goes with the next call, COMMIT included;
  // its failure fails the transaction as a statement of its own would have.
  it('sends deferred statements with the next call, and their errors fail the transaction', () => {
    db.transaction(() => {
      db.defer('INSERT INTO t (id, name) VALUES ($1, $2)', [1, 'a']);
      expect(db.query<{ n: number }>('SELECT count(*)::int AS n FROM t').rows[0].n).toBe(1); // it ran first
      db.defer('INSERT INTO t (id, name) VALUES ($1, $2)', [2, 'b']); // travels with COMMIT
    });
    expect(db.query<{ id: number }>('SELECT id FROM t ORDER BY id').rows.map((r) => r.id)).toEqual([1, 2]);
    const err = (() => {
      try {
        db.transaction(() => {
          db.query('INSERT INTO t (id) VALUES (3)');
          db.defer('INSERT INTO t (id, name) VALUES ($1, $2)', [4, 'a']); // duplicate name
        });
      } catch (e) {
        return e;
      }
    })();
    expect((err as PgQueryError).code).toBe('23505');
    expect(db.inTransaction).toBe(false);
    // A savepoint that fails drops what was deferred inside it, not what came before it.
    db.transaction(() => {
      db.defer('INSERT INTO t (id) VALUES (5)');
      expect(() =>
        db.transaction(() => {
          db.defer('INSERT INTO t (id) VALUES (6)');
          throw new Error('not this one');
        }),
      ).toThrow('not this one');
    });
    db.defer('INSERT INTO t (id) VALUES (7)'); // outside a transaction: at once
    expect(db.query<{ id: number }>('SELECT id FROM t ORDER BY id').rows.map((r) => r.id)).toEqual([1, 2, 5, 7]);
  });

  it('says a server that cannot be reached is unavailable, in one line, without the password', () => {
    let err: unknown;
    try {
      new PgSync('postgres://rz:secret-pw@127.0.0.1:1/none', { connectTimeoutMs: 2000 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PgUnavailableError);
    expect((err as Error).message).toMatch(/cannot reach PostgreSQL .*connection refused/);
    expect((err as Error).message).not.toContain('secret-pw');
  });

  it('a connection lost during a call fails that call as unavailable, and the next call reconnects', () => {
    db.query('INSERT INTO t (id, name) VALUES ($1, $2)', [1, 'before']);
    const pid = db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid').rows[0].pid;
    // The backend ends itself in the middle of the statement, as a server restart would.
    expect(() => db.query('SELECT pg_terminate_backend(pg_backend_pid())')).toThrow(PgUnavailableError);
    expect(db.query('SELECT name FROM t WHERE id = $1', [1]).rows).toEqual([{ name: 'before' }]);
    expect(db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid').rows[0].pid).not.toBe(pid);
  });

  it('a connection killed while idle is replaced before the next call', async () => {
    const pid = db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid').rows[0].pid;
    const admin = await pgdb.client();
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await new Promise((r) => setTimeout(r, 200));
    expect(db.query('SELECT count(*)::int AS n FROM t').rows).toEqual([{ n: 0 }]);
    expect(db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid').rows[0].pid).not.toBe(pid);
  });
});
