import type { Database } from '../db/store/contract.js';
import { PROCESS_OWNER } from '../process-owner.js';

/** How long a claimed job stays this process's without a renewal (the queue renews every third of it). */
export const JOB_LEASE_MS = 30_000;

export { PROCESS_OWNER };

export interface JobsRepoOptions {
  /** Who holds the leases this repository takes (default: this process). */
  owner?: string;
  leaseMs?: number;
}

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
  /** The process holding a running job, and until when (epoch ms); null when not running. */
  locked_by: string | null;
  locked_until: number | null;
}

// Jobs are install-wide work items: the worker claims across tenants, and every job
// carries the tenant its handler must act for. Several processes may share the table: a
// claimed job carries a lease (locked_by, locked_until) its process renews while it runs,
// and only a job whose lease expired goes back to the queue. On SQLite one writer claims
// at a time; PostgreSQL's twin claims with FOR UPDATE SKIP LOCKED (repos/pg/jobs.pg.ts).
export class JobsRepo {
  readonly owner: string;
  readonly leaseMs: number;
  protected readonly insertStmt;
  private readonly readyStmt;
  private readonly readyOfKindStmt;
  private readonly claimStmt;
  private readonly doneStmt;
  private readonly retryStmt;
  private readonly retryTransientStmt;
  private readonly dropDuplicateRunningStmt;
  private readonly failStmt;
  private readonly requeueRunningStmt;
  private readonly renewStmt;
  private readonly holdersStmt;
  private readonly depthStmt;
  private readonly nextRunStmt;
  private readonly countKindStmt;
  private readonly tenantDepthStmt;

  constructor(
    protected readonly db: Database,
    opts: JobsRepoOptions = {},
  ) {
    this.owner = opts.owner ?? PROCESS_OWNER;
    this.leaseMs = opts.leaseMs ?? JOB_LEASE_MS;
    this.insertStmt = db.prepare(
      `INSERT OR IGNORE INTO jobs (tenant_id, kind, payload, dedupe_key, run_after, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.readyStmt = db.prepare(
      "SELECT * FROM jobs WHERE status = 'queued' AND run_after <= ? AND kind IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT 1",
    );
    this.readyOfKindStmt = db.prepare("SELECT * FROM jobs WHERE status = 'queued' AND kind = ? AND run_after <= ? ORDER BY id LIMIT ?");
    this.claimStmt = db.prepare(
      "UPDATE jobs SET status = 'running', attempts = attempts + 1, updated_at = ?, locked_by = ?, locked_until = ? WHERE id = ? AND status = 'queued'",
    );
    this.doneStmt = db.prepare('DELETE FROM jobs WHERE id = ?');
    // A running job goes back to the queue unless an identical one (same dedupe key) was
    // queued meanwhile: that one does the same work, and the unique index allows one.
    this.retryStmt = db.prepare(
      `UPDATE jobs SET status = 'queued', run_after = ?, last_error = ?, updated_at = ?, locked_by = NULL, locked_until = NULL WHERE id = ?
         AND NOT EXISTS (SELECT 1 FROM jobs q WHERE q.status = 'queued' AND q.dedupe_key = jobs.dedupe_key)`,
    );
    // A retry that does not count: the failure was the machine's (a full disk), not the job's.
    this.retryTransientStmt = db.prepare(
      `UPDATE jobs SET status = 'queued', attempts = max(attempts - 1, 0), run_after = ?, last_error = ?, updated_at = ?, locked_by = NULL, locked_until = NULL
         WHERE id = ? AND status = 'running'
         AND NOT EXISTS (SELECT 1 FROM jobs q WHERE q.status = 'queued' AND q.dedupe_key = jobs.dedupe_key)`,
    );
    // A running job is orphaned when its lease expired (its process died or stalled), it has
    // none (claimed before leases), or at start-up its holder is known gone: the owner
    // starting, or a dead process of this machine (`?` 2, a JSON list).
    const orphan = "status = 'running' AND (locked_until IS NULL OR locked_until <= ? OR locked_by IN (SELECT value FROM json_each(?)))";
    this.dropDuplicateRunningStmt = db.prepare(
      `DELETE FROM jobs WHERE ${orphan} AND dedupe_key IN (SELECT dedupe_key FROM jobs WHERE status = 'queued' AND dedupe_key IS NOT NULL)`,
    );
    this.failStmt = db.prepare("UPDATE jobs SET status = 'failed', last_error = ?, updated_at = ?, locked_by = NULL, locked_until = NULL WHERE id = ?");
    this.requeueRunningStmt = db.prepare(`UPDATE jobs SET status = 'queued', updated_at = ?, locked_by = NULL, locked_until = NULL WHERE ${orphan}`);
    this.holdersStmt = db.prepare("SELECT DISTINCT locked_by FROM jobs WHERE status = 'running' AND locked_until > ? AND locked_by IS NOT NULL").pluck();
    this.renewStmt = db.prepare(
      "UPDATE jobs SET locked_until = ? WHERE status = 'running' AND locked_by = ? AND id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))",
    );
    this.depthStmt = db.prepare("SELECT count(*) FROM jobs WHERE status IN ('queued','running')").pluck();
    this.nextRunStmt = db.prepare("SELECT min(run_after) FROM jobs WHERE status = 'queued'").pluck();
    this.tenantDepthStmt = db.prepare("SELECT count(*) FROM jobs WHERE tenant_id = ? AND status IN ('queued','running')").pluck();
    this.countKindStmt = db.prepare("SELECT count(*) FROM jobs WHERE tenant_id = ? AND kind = ? AND status IN ('queued','running')").pluck();
  }

  /** Returns false when a queued job with the same dedupe key already exists. */
  async insert(tenantId: string, kind: string, payload: unknown, dedupeKey: string | null, runAfter: number, now: number): Promise<boolean> {
    return (await this.insertStmt.run(tenantId, kind, JSON.stringify(payload ?? {}), dedupeKey, runAfter, now, now)).changes === 1;
  }

  /** Claims the oldest ready job, plus up to batch-1 more of the same kind. */
  async claim(kinds: string[], now: number, batchOf: (kind: string) => number): Promise<JobRow[]> {
    return await this.db.withTx(async () => {
      const first = await this.readyStmt.get(now, JSON.stringify(kinds)) as JobRow | undefined;
      if (!first) return [];
      const rows = await this.readyOfKindStmt.all(first.kind, now, batchOf(first.kind)) as JobRow[];
      const until = now + this.leaseMs;
      for (const r of rows) await this.claimStmt.run(now, this.owner, until, r.id);
      return rows.map((r) => ({ ...r, status: 'running' as const, attempts: r.attempts + 1, locked_by: this.owner, locked_until: until }));
    });
  }

  async complete(id: number): Promise<void> {
    await this.doneStmt.run(id);
  }
  async retry(id: number, runAfter: number, error: string, now: number): Promise<void> {
    if ((await this.retryStmt.run(runAfter, error, now, id)).changes === 0) await this.doneStmt.run(id);
  }
  async retryTransient(id: number, runAfter: number, error: string, now: number): Promise<void> {
    if ((await this.retryTransientStmt.run(runAfter, error, now, id)).changes === 0) await this.doneStmt.run(id);
  }
  async fail(id: number, error: string, now: number): Promise<void> {
    await this.failStmt.run(error, now, id);
  }
  /**
   * At start-up: requeues the running jobs whose process died — those whose lease expired,
   * this owner's own (it is starting, so none of them runs) and those of `deadOwners`
   * (processes known gone). Jobs another live process holds are left to it.
   */
  async requeueRunning(now: number, deadOwners: string[] = []): Promise<number> {
    return await this.requeueOrphans(now, [this.owner, ...deadOwners]);
  }
  /** The periodic sweep: requeues the running jobs whose lease expired, whoever held them. */
  async requeueExpired(now: number): Promise<number> {
    return await this.requeueOrphans(now, []);
  }
  /** The processes holding unexpired leases on running jobs. */
  async leaseHolders(now: number): Promise<string[]> {
    return await this.holdersStmt.all(now) as string[];
  }
  /** Extends this owner's leases on these running jobs; returns how many it still held. */
  async renew(ids: number[], now: number): Promise<number> {
    if (ids.length === 0) return 0;
    return (await this.renewStmt.run(now + this.leaseMs, this.owner, JSON.stringify(ids))).changes;
  }
  private async requeueOrphans(now: number, owners: string[]): Promise<number> {
    const list = JSON.stringify(owners);
    return await this.db.withTx(async () => {
      // Requeued, it would collide with an identical job queued meanwhile: that one does the work.
      await this.dropDuplicateRunningStmt.run(now, list);
      return (await this.requeueRunningStmt.run(now, now, list)).changes;
    });
  }
  async depth(): Promise<number> {
    return await this.depthStmt.get() as number;
  }
  /** Queued and running jobs of one tenant (what /health shows its caller). */
  async depthOf(tenantId: string): Promise<number> {
    return await this.tenantDepthStmt.get(tenantId) as number;
  }
  async nextRunAt(): Promise<number | null> {
    return await this.nextRunStmt.get() as number | null;
  }
  async pendingOfKind(tenantId: string, kind: string): Promise<number> {
    return await this.countKindStmt.get(tenantId, kind) as number;
  }

  /** Runs fn once the caller's transaction has committed (at once outside one). */
  afterCommit(fn: () => void): void {
    this.db.afterCommit(fn);
  }
}
