// Before a schema change touches a database file, a copy of it as it was goes to
// <data>/backups/rhizome-v<old>-<time>.db (VACUUM INTO: one consistent snapshot, owner-only).
// The newest KEEP copies stay; older ones are removed.
import type Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const KEEP_UPGRADE_BACKUPS = 3;
const NAME = /^rhizome-v\d+-\d{8}T\d{6}Z(-\d+)?\.db$/;

export function upgradeBackupDir(dbFile: string): string {
  return join(dirname(dbFile), 'backups');
}

/** Copies the database before migrating from `fromVersion`; returns the copy's path (undefined: nothing to copy). */
export function backupBeforeUpgrade(db: Database.Database, fromVersion: number, now = new Date()): string | undefined {
  const file = db.name;
  if (!file || file === ':memory:' || db.memory || fromVersion === 0) return undefined;
  const dir = upgradeBackupDir(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  let target = join(dir, `rhizome-v${fromVersion}-${stamp}.db`);
  for (let i = 1; ; i++) {
    try {
      closeSync(openSync(target, 'wx', 0o600));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      target = join(dir, `rhizome-v${fromVersion}-${stamp}-${i}.db`);
    }
  }
  db.prepare('VACUUM INTO ?').run(target);
  pruneUpgradeBackups(dir);
  return target;
}

/** Keeps the newest KEEP_UPGRADE_BACKUPS copies (names sort by time within a version). */
export function pruneUpgradeBackups(dir: string, keep = KEEP_UPGRADE_BACKUPS): void {
  const files = readdirSync(dir).filter((f) => NAME.test(f));
  const byTime = files.sort((a, b) => stampOf(a).localeCompare(stampOf(b)) || a.localeCompare(b));
  for (const f of byTime.slice(0, Math.max(0, byTime.length - keep))) rmSync(join(dir, f), { force: true });
}

const stampOf = (f: string) => f.replace(/^rhizome-v\d+-/, '');
