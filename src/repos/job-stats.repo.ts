// The job table as an operator watches it: how many jobs wait, by kind and state, and how
// long the oldest ready one has waited (since it became due, so a feed poll scheduled an
// hour ahead does not look an hour late).
import type { Db } from '../db/open.js';

export interface JobStatsRow {
  kind: string;
  /** queued (due now), scheduled (due later) or running. */
  state: 'queued' | 'scheduled' | 'running';
  n: number;
  /** For queued: the earliest moment one of them became due (epoch ms). */
  oldest_due: number | null;
}

export class JobStatsRepo {
  private readonly s;

  constructor(db: Db) {
    this.s = db.prepare(`SELECT kind,
        CASE WHEN status = 'running' THEN 'running' WHEN run_after > @now THEN 'scheduled' ELSE 'queued' END AS state,
        count(*) AS n,
        min(CASE WHEN status = 'queued' AND run_after <= @now THEN max(created_at, run_after) END) AS oldest_due
      FROM jobs WHERE status IN ('queued', 'running')
      GROUP BY kind, CASE WHEN status = 'running' THEN 'running' WHEN run_after > @now THEN 'scheduled' ELSE 'queued' END`);
  }

  /** Across every tenant: this is install-wide operations data, not tenant data. */
  counts(now: number): JobStatsRow[] {
    return (this.s.all({ now }) as JobStatsRow[]).map((r) => ({ ...r, n: Number(r.n), oldest_due: r.oldest_due === null ? null : Number(r.oldest_due) }));
  }
}
