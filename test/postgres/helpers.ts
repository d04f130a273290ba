// PostgreSQL tier helpers: every test gets a database of its own on the tier's server, so
// parallel files and runs never share state; it is dropped afterwards.
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { describe } from 'vitest';
import { connectPg, type PgClient } from '../../src/db/pg/connect.js';
import { migratePg } from '../../src/db/pg/migrate.js';
import type { PgStore } from '../../src/db/store/pg-store.js';

export const PG_URL = process.env.RHIZOME_TEST_DATABASE_URL;

/** describe, or describe.skip when the tier is not configured (tier-setup.ts says so once). */
export const describePg = PG_URL ? describe : describe.skip;

export interface TestPgDatabase {
  url: string;
  client(): Promise<PgClient>;
  drop(): Promise<void>;
}

/** A database of this test's own; `migrated`: brought to the current schema first. */
export async function createTestDatabase(opts: { migrated?: boolean } = {}): Promise<TestPgDatabase> {
  const name = `rz_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = await connectPg(PG_URL!);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(PG_URL!);
  u.pathname = `/${name}`;
  const url = u.toString();
  const clients: PgClient[] = [];
  const db: TestPgDatabase = {
    url,
    async client() {
      const c = await connectPg(url);
      clients.push(c);
      return c;
    },
    async drop() {
      for (const c of clients) await c.end().catch(() => {});
      const a = await connectPg(PG_URL!);
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
  if (opts.migrated) await migratePg(await db.client());
  return db;
}

/** Polls f until it gives a value (a throw counts as not yet), or fails naming what it waited for. */
export async function until<T>(what: string, f: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Counts the writes the store's pooled clients make to the server's socket: a round trip
 * each (a client writes again only once answered, unless held statements went with a write).
 */
export function countSocketWrites(db: PgStore): { n: number } {
  const counter = { n: 0 };
  const seen = new WeakSet<Socket>();
  db.pool.on('acquire', (client) => {
    const stream = (client as unknown as { connection: { stream: Socket } }).connection.stream;
    if (seen.has(stream)) return;
    seen.add(stream);
    const w = stream as unknown as Record<'_write' | '_writev', (...a: unknown[]) => unknown>;
    for (const m of ['_write', '_writev'] as const) {
      const orig = w[m];
      w[m] = function (this: unknown, ...a: unknown[]) {
        counter.n++;
        return orig.apply(this, a);
      };
    }
  });
  return counter;
}
