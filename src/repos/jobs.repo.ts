import type { Db } from '../db/open.js';

export interface JobRow {
  id: number;
  tenant_id: string;
  kind: string;
  payload: string;
  dedupe_key: string | null;
  status: 'queued' | 'running' | 'done' | 'failed';
  attempts: number;
  run_after: number;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

// Jobs are install-wide work items: the worker claims across tenants, and every job
// carries the tenant its handler must act for.
export class JobsRepo {
  private readonly insertStmt;
  private readonly readyStmt;
  private readonly readyOfKindStmt;
  private readonly claimStmt;
  private readonly doneStmt;
  private readonly retryStmt;
  private readonly retryTransientStmt;
  private readonly dropDuplicateRunningStmt;
  private readonly failStmt;
  private readonly requeueRunningStmt;
  private readonly depthStmt;
  private readonly nextRunStmt;
  private readonly countKindStmt;
  private readonly tenantDepthStmt;

  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare(
      `INSERT OR IGNORE INTO jobs (tenant_id, kind, payload, dedupe_key, run_after, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.readyStmt = db.prepare(
      "SELECT * FROM jobs WHERE status = 'queued' AND run_after <= ? AND kind IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT 1",
    );
    this.readyOfKindStmt = db.prepare("SELECT * FROM jobs WHERE status = 'queued' AND kind = ? AND run_after <= ? ORDER BY id LIMIT ?");
    this.claimStmt = db.prepare("UPDATE jobs SET status = 'running', attempts = attempts + 1, updated_at = ? WHERE id = ? AND status = 'queued'");
    this.doneStmt = db.prepare('DELETE FROM jobs WHERE id = ?');
    // A running job goes back to the queue unless an identical one (same dedupe key) was
    // queued meanwhile: that one does the same work, and the unique index allows one.
    this.retryStmt = db.prepare(
      `UPDATE jobs SET status = 'queued', run_after = ?, last_error = ?, updated_at = ? WHERE id = ?
         AND NOT EXISTS (SELECT 1 FROM jobs q WHERE q.status = 'queued' AND q.dedupe_key = jobs.dedupe_key)`,
    );
    // A retry that does not count: the failure was the machine's (a full disk), not the job's.
    this.retryTransientStmt = db.prepare(
      `UPDATE jobs SET status = 'queued', attempts = max(attempts - 1, 0), run_after = ?, last_error = ?, updated_at = ? WHERE id = ? AND status = 'running'
         AND NOT EXISTS (SELECT 1 FROM jobs q WHERE q.status = 'queued' AND q.dedupe_key = jobs.dedupe_key)`,
    );
    this.dropDuplicateRunningStmt = db.prepare(
      `DELETE FROM jobs WHERE status = 'running' AND dedupe_key IN (SELECT dedupe_key FROM jobs WHERE status = 'queued' AND dedupe_key IS NOT NULL)`,
    );
    this.failStmt = db.prepare("UPDATE jobs SET status = 'failed', last_error = ?, updated_at = ? WHERE id = ?");
    this.requeueRunningStmt = db.prepare("UPDATE jobs SET status = 'queued', updated_at = ? WHERE status = 'running'");
    this.depthStmt = db.prepare("SELECT count(*) FROM jobs WHERE status IN ('queued','running')").pluck();
    this.nextRunStmt = db.prepare("SELECT min(run_after) FROM jobs WHERE status = 'queued'").pluck();
    this.tenantDepthStmt = db.prepare("SELECT count(*) FROM jobs WHERE tenant_id = ? AND status IN ('queued','running')").pluck();
    this.countKindStmt = db.prepare("SELECT count(*) FROM jobs WHERE tenant_id = ? AND kind = ? AND status IN ('queued','running')").pluck();
  }

  /** Returns false when a queued job with the same dedupe key already exists. */
  insert(tenantId: string, kind: string, payload: unknown, dedupeKey: string | null, runAfter: number, now: number): boolean {
    return this.insertStmt.run(tenantId, kind, JSON.stringify(payload ?? {}), dedupeKey, runAfter, now, now).changes === 1;
  }

  /** Claims the oldest ready job, plus up to batch-1 more of the same kind. */
  claim(kinds: string[], now: number, batchOf: (kind: string) => number): JobRow[] {
    return this.db.transaction(() => {
      const first = this.readyStmt.get(now, JSON.stringify(kinds)) as JobRow | undefined;
      if (!first) return [];
      const rows = this.readyOfKindStmt.all(first.kind, now, batchOf(first.kind)) as JobRow[];
      for (const r of rows) this.claimStmt.run(now, r.id);
      return rows.map((r) => ({ ...r, status: 'running' as const, attempts: r.attempts + 1 }));
    })();
  }

  complete(id: number): void {
    this.doneStmt.run(id);
  }
  retry(id: number, runAfter: number, error: string, now: number): void {
    if (this.retryStmt.run(runAfter, error, now, id).changes === 0) this.doneStmt.run(id);
  }
  retryTransient(id: number, runAfter: number, error: string, now: number): void {
    if (this.retryTransientStmt.run(runAfter, error, now, id).changes === 0) this.doneStmt.run(id);
  }
  fail(id: number, error: string, now: number): void {
    this.failStmt.run(error, now, id);
  }
  /** A job still 'running' at start-up belonged to a process that died: run it again. */
  requeueRunning(now: number): number {
    return this.db.transaction(() => {
      this.dropDuplicateRunningStmt.run();
      return this.requeueRunningStmt.run(now).changes;
    })();
  }
  depth(): number {
    return this.depthStmt.get() as number;
  }
  /** Queued and running jobs of one tenant (what /health shows its caller). */
  depthOf(tenantId: string): number {
    return this.tenantDepthStmt.get(tenantId) as number;
  }
  nextRunAt(): number | null {
    return this.nextRunStmt.get() as number | null;
  }
  pendingOfKind(tenantId: string, kind: string): number {
    return this.countKindStmt.get(tenantId, kind) as number;
  }
}
