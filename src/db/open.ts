// Opens the one SQLite file with the pragmas Rhizome relies on and sqlite-vec loaded.
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate } from './migrate.js';

export type Db = Database.Database;

export interface OpenOptions {
  /** NORMAL (default): in WAL mode a commit is in the OS before it is acknowledged, so it
   *  survives kill -9; only power loss can drop the last commits. FULL also fsyncs each
   *  commit (survives power loss) at ~10x the write latency on this class of disk. */
  synchronous?: 'FULL' | 'NORMAL';
}

export function openDatabase(path: string, opts: OpenOptions = {}): Db {
  // The database holds every secret (key hashes, tokens, content): owner-only, like
  // `credentials`. SQLite gives its -wal and -shm files the database file's mode.
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  }
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${opts.synchronous ?? 'NORMAL'}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  // No memory map: mapped pages count in the server's RSS (~256 MB more at 100k notes once
  // the vector index has been read through it) for no measurable search latency (the
  // hot data lives in the in-memory indexes; docs/performance.md, "Memory").
  db.pragma('cache_size = -32768'); // 32 MiB page cache
  db.pragma('mmap_size = 0');
  sqliteVec.load(db);
  migrate(db);
  return db;
}

/**
 * Clean shutdown: fold the WAL back into the main file so copying rhizome.db alone is a
 * backup. A process that only visits the data folder while the server may own it (an admin
 * command) checkpoints PASSIVE: what it can without waiting (everything when no server runs),
 * since a TRUNCATE checkpoint waits out every writer and reader and holds up the server's
 * own writes.
 */
export function closeDatabase(db: Db, o: { checkpoint?: 'TRUNCATE' | 'PASSIVE' } = {}): void {
  if (!db.open) return;
  try {
    db.pragma(`wal_checkpoint(${o.checkpoint ?? 'TRUNCATE'})`);
  } finally {
    db.close();
  }
}

/** A consistent copy while the server runs (VACUUM INTO reads one snapshot). */
export function backupDatabase(db: Db, target: string): void {
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  // VACUUM INTO accepts an empty file: create it owner-only first so the copy never is readable by others.
  if (!existsSync(target)) closeSync(openSync(target, 'wx', 0o600));
  db.prepare('VACUUM INTO ?').run(target);
}
