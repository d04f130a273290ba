// The jobs table on PostgreSQL, shared by any number of processes: JobsRepo (its statements
// written for both engines), with the claim made safe for concurrent claimers. SQLite's claim (select, then
// update each row) relies on one writer at a time; here two processes could select the
// same rows. One statement instead: the oldest ready job of the asked kinds and up to its
// kind's batch of the same kind, each row locked with FOR UPDATE SKIP LOCKED (rows another
// claimer holds are passed over, never waited on), marked running with this process's lease.
// A suspended tenant's jobs are passed over too, as on SQLite (jobs.repo.ts, JOB_TENANT_ACTIVE).
// PostgreSQL's own text with numbered parameters, each used where the statement needs it
// (`$1`, `$2` twice), run as written: the concurrency tests run this very text from raw clients.
import type { PgStore } from '../../db/store/pg-store.js';
import { JobsRepo, type JobRow, type JobsRepoOptions } from '../jobs.repo.js';

/** Exported for the concurrency test, which also runs it from several asynchronous clients at once. */
export const PG_CLAIM_SQL = `
WITH first AS (
  SELECT kind FROM jobs WHERE status = 'queued' AND run_after <= $1 AND kind = ANY($2::text[])
    AND NOT EXISTS (SELECT 1 FROM tenants s WHERE s.id = jobs.tenant_id AND s.status = 'suspended')
  ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
), picked AS (
  SELECT j.id FROM jobs j JOIN first f ON j.kind = f.kind
  WHERE j.status = 'queued' AND j.run_after <= $1
    AND NOT EXISTS (SELECT 1 FROM tenants s WHERE s.id = j.tenant_id AND s.status = 'suspended')
  ORDER BY j.id
  LIMIT (SELECT b.n FROM unnest($2::text[], $3::int[]) AS b(kind, n) JOIN first f ON f.kind = b.kind LIMIT 1)
  FOR UPDATE OF j SKIP LOCKED
)
UPDATE jobs SET status = 'running', attempts = jobs.attempts + 1, updated_at = $1, locked_by = $4, locked_until = $5
FROM picked WHERE jobs.id = picked.id
RETURNING jobs.*`;

export class PgJobsRepo extends JobsRepo {
  constructor(
    private readonly pg: PgStore,
    opts: JobsRepoOptions = {},
  ) {
    super(pg, opts);
  }

  /** Claims the oldest ready job, plus up to batch-1 more of the same kind, skipping rows other processes are claiming. */
  override async claim(kinds: string[], now: number, batchOf: (kind: string) => number): Promise<JobRow[]> {
    if (kinds.length === 0) return [];
    const sizes = kinds.map((k) => Math.max(1, Math.floor(batchOf(k))));
    const rows = (await this.pg.query<JobRow>(PG_CLAIM_SQL, [now, kinds, sizes, this.owner, now + this.leaseMs])).rows;
    return rows.sort((a, b) => a.id - b.id);
  }
}
