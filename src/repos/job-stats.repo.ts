// The job table as an operator watches it: how many jobs wait, by kind and state, and how
// long the oldest ready one has waited (since it became due, so a feed poll scheduled an
// hour ahead does not look an hour late). A suspended tenant's waiting jobs are `paused`, not
// queued: they wait for the operator, and would otherwise look ever later.
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';
import { JOB_TENANT_ACTIVE } from './jobs.repo.js';

export interface JobStatsRow {
  kind: string;
  /** queued (due now), scheduled (due later), paused (its tenant is suspended) or running. */
  state: 'queued' | 'scheduled' | 'paused' | 'running';
  n: number;
  /** For queued: the earliest moment one of them became due (epoch ms). */
  oldest_due: number | null;
}

type Raw = Omit<JobStatsRow, 'n' | 'oldest_due'> & { n: number | string; oldest_due: number | string | null };

export class JobStatsRepo {
  constructor(private readonly db: Database) {}

  /** Across every tenant: this is install-wide operations data, not tenant data. */
  async counts(now: number): Promise<JobStatsRow[]> {
    // The state is worked out once per job (inner query) and grouped on by name, so `now` is
    // one parameter. When a job became due: the later of its creation and its run_after
    // (SQLite's scalar max, PostgreSQL's greatest).
    const rows = await this.db.all(
      this.db.engine === 'postgres'
        ? sql<Raw>`SELECT kind, state, count(*) AS n, min(CASE WHEN state = 'queued' THEN due END) AS oldest_due
            FROM (SELECT kind, CASE WHEN status = 'running' THEN 'running' WHEN NOT ${JOB_TENANT_ACTIVE} THEN 'paused' WHEN run_after > ${now} THEN 'scheduled' ELSE 'queued' END AS state,
                    greatest(created_at, run_after) AS due
                  FROM jobs WHERE status IN ('queued', 'running')) j
            GROUP BY kind, state`
        : sql<Raw>`SELECT kind, state, count(*) AS n, min(CASE WHEN state = 'queued' THEN due END) AS oldest_due
            FROM (SELECT kind, CASE WHEN status = 'running' THEN 'running' WHEN NOT ${JOB_TENANT_ACTIVE} THEN 'paused' WHEN run_after > ${now} THEN 'scheduled' ELSE 'queued' END AS state,
                    max(created_at, run_after) AS due
                  FROM jobs WHERE status IN ('queued', 'running')) j
            GROUP BY kind, state`,
    );
    return rows.map((r) => ({ ...r, n: Number(r.n), oldest_due: r.oldest_due === null ? null : Number(r.oldest_due) }));
  }
}
