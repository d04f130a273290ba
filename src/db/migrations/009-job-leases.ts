// Job leases, so several processes can share the jobs table: a claimed job records which
// process holds it (locked_by) and until when (locked_until, epoch ms), renewed while it
// runs. Only a job whose lease expired is requeued (at start-up and by a periodic sweep);
// a running job without a lease (claimed before this step) counts as expired. Idempotent,
// like the other steps: a column already there is left as it is.
import type Database from 'better-sqlite3';

export function jobLeasesSchema(db: Database.Database): void {
  const has = new Set((db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('jobs') as string[]));
  if (!has.has('locked_by')) db.exec('ALTER TABLE jobs ADD COLUMN locked_by TEXT');
  if (!has.has('locked_until')) db.exec('ALTER TABLE jobs ADD COLUMN locked_until INTEGER');
}
