// Which database Rhizome runs on: the one SQLite file (the default), or PostgreSQL when
// RHIZOME_DATABASE_URL is set. Either way the schema is brought to this version before
// anything reads it, and the result is the store every repository takes: one asynchronous
// contract over either engine (store/contract.ts).
import type { Config } from '../config.js';
import { backupDatabase, openDatabase } from './open.js';
import { connectPg, describeUrl } from './pg/connect.js';
import { migratePg } from './pg/migrate.js';
import { PgStore, type PgStoreOptions } from './store/pg-store.js';
import { SqliteStore } from './store/sqlite-store.js';

export type Store = SqliteStore | PgStore;

/** Opens the configured database, migrated; PostgreSQL out of reach is a PgUnreachableError with one line. */
export async function openStore(
  config: Pick<Config, 'databaseUrl' | 'dbPath' | 'synchronous'> & { pgPoolSize?: number; pg?: PgStoreOptions },
  onHookError?: (e: unknown) => void,
): Promise<Store> {
  if (!config.databaseUrl) return new SqliteStore(openDatabase(config.dbPath, { synchronous: config.synchronous }), onHookError);
  const client = await connectPg(config.databaseUrl);
  try {
    await migratePg(client);
  } finally {
    await client.end().catch(() => {});
  }
  return new PgStore(config.databaseUrl, { poolSize: config.pgPoolSize, ...config.pg }, onHookError);
}

export async function closeStore(db: Store, o: { checkpoint?: 'TRUNCATE' | 'PASSIVE' } = {}): Promise<void> {
  if (db instanceof PgStore) await db.close();
  else await db.close(o);
}

export class BackupUnsupportedError extends Error {}

/** A consistent copy while the server runs: SQLite's VACUUM INTO; on PostgreSQL, pg_dump's job. */
export async function backupStore(db: Store, target: string): Promise<void> {
  if (db instanceof PgStore) throw new BackupUnsupportedError('the database is PostgreSQL: back it up with pg_dump (or `rhizome migrate --from` into a SQLite file)');
  await db.turn();
  backupDatabase(db.handle, target);
}

export const describeStore = (config: Pick<Config, 'databaseUrl' | 'dbPath'>) => (config.databaseUrl ? `PostgreSQL at ${describeUrl(config.databaseUrl)}` : config.dbPath);
