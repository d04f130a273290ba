// The database a test app runs on: SQLite (in memory, or a file for restart tests) by
// default; PostgreSQL when RHIZOME_TEST_BACKEND=postgres (the `postgres-app` vitest project,
// on the tier's server RHIZOME_TEST_DATABASE_URL). On PostgreSQL every app gets a database
// of its own, cloned from a migrated template (CREATE DATABASE … TEMPLATE: a few ms, not
// a migration per test), dropped when the app closes; a "file" path names one database
// for the life of the test file, so restart tests find their data again.
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../../src/db/open.js';
import { connectPg } from '../../src/db/pg/connect.js';
import { migratePg } from '../../src/db/pg/migrate.js';
import type { Store } from '../../src/db/store.js';
import { PgStore } from '../../src/db/store/pg-store.js';
import { SqliteStore } from '../../src/db/store/sqlite-store.js';

export const TEST_BACKEND: 'sqlite' | 'postgres' = process.env.RHIZOME_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabase {
  db: Store;
  /** Closes the connection; a PostgreSQL database made for this app only is dropped. */
  close(): Promise<void>;
}

const dbUrl = (name: string) => {
  const u = new URL(process.env.RHIZOME_TEST_DATABASE_URL!);
  u.pathname = `/${name}`;
  return u.toString();
};

let template: Promise<string> | undefined;
const byPath = new Map<string, string>();

/** One migrated template per test process (vitest forks: each file has its own). */
function migratedTemplate(): Promise<string> {
  return (template ??= (async () => {
    const name = `rz_tmpl_${process.pid}_${randomBytes(3).toString('hex')}`;
    const admin = await connectPg(process.env.RHIZOME_TEST_DATABASE_URL!);
    try {
      await admin.query(`CREATE DATABASE ${name}`);
    } finally {
      await admin.end();
    }
    const c = await connectPg(dbUrl(name));
    try {
      await migratePg(c);
    } finally {
      await c.end();
    }
    return name;
  })());
}

async function adminQuery(sql: string): Promise<void> {
  const admin = await connectPg(process.env.RHIZOME_TEST_DATABASE_URL!);
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

export async function openTestDatabase(path = ':memory:'): Promise<TestDatabase> {
  if (TEST_BACKEND === 'sqlite') {
    const db = new SqliteStore(openDatabase(path));
    return {
      db,
      async close() {
        db.handle.close();
      },
    };
  }
  if (!process.env.RHIZOME_TEST_DATABASE_URL) throw new Error('RHIZOME_TEST_BACKEND=postgres needs RHIZOME_TEST_DATABASE_URL');
  const keep = path !== ':memory:';
  let name = keep ? byPath.get(path) : undefined;
  if (!name) {
    name = `rz_app_${process.pid}_${randomBytes(4).toString('hex')}`;
    await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${await migratedTemplate()}`);
    if (keep) byPath.set(path, name);
  }
  const db = new PgStore(dbUrl(name));
  return {
    db,
    async close() {
      await db.close();
      if (!keep) await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
