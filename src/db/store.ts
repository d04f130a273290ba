// Which database Rhizome runs on: the one SQLite file (the default), or PostgreSQL when
// RHIZOME_DATABASE_URL is set. Either way the schema is brought to this version before
// anything reads it, and the result is a connection every repository takes (db/pg/pg-db.ts
// speaks the part of better-sqlite3's API they use).
import type { Config } from '../config.js';
import { backupDatabase, closeDatabase, openDatabase, type Db } from './open.js';
import { connectPg, describeUrl } from './pg/connect.js';
import { migratePg } from './pg/migrate.js';
import { PgDb } from './pg/pg-db.js';
import { PgSync } from './pg/sync-client.js';

/** Opens the configured database, migrated; PostgreSQL out of reach is a PgUnreachableError with one line. */
export async function openStore(config: Pick<Config, 'databaseUrl' | 'dbPath' | 'synchronous'>): Promise<Db | PgDb> {
  if (!config.databaseUrl) return openDatabase(config.dbPath, { synchronous: config.synchronous });
  const client = await connectPg(config.databaseUrl);
  try {
    await migratePg(client);
  } finally {
    await client.end().catch(() => {});
  }
  return new PgDb(new PgSync(config.databaseUrl));
}

export function closeStore(db: Db | PgDb, o: { checkpoint?: 'TRUNCATE' | 'PASSIVE' } = {}): void {
  if (db instanceof PgDb) db.close();
  else closeDatabase(db, o);
}

export class BackupUnsupportedError extends Error {}

/** A consistent copy while the server runs: SQLite's VACUUM INTO; on PostgreSQL, pg_dump's job. */
export function backupStore(db: Db | PgDb, target: string): void {
  if (db instanceof PgDb) throw new BackupUnsupportedError('the database is PostgreSQL: back it up with pg_dump (or `rhizome migrate --from` into a SQLite file)');
  backupDatabase(db, target);
}

export const describeStore = (config: Pick<Config, 'databaseUrl' | 'dbPath'>) => (config.databaseUrl ? `PostgreSQL at ${describeUrl(config.databaseUrl)}` : config.dbPath);
