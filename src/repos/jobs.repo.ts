import type { Database } from '../db/store/contract.js';
import { type Query, sql } from '../db/store/sql.js';
import { PROCESS_OWNER } from '../process-owner.js';

/** PostgreSQL's SQLSTATE for a duplicate key. */
const UNIQUE_VIOLATION = '23505';

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

/**
 * A job is claimable only while its tenant is not suspended: an operator's suspension pauses
 * the tenant's queued jobs where they stand (a job already running finishes), and resuming
 * lets the next claim take them (docs/operators.md). One text for both engines and for the
 * ready-time the pump waits for (so a paused job never makes it spin), and for the metrics'
 * `paused` state (job-stats.repo.ts).
 */
export const JOB_TENANT_ACTIVE = sql`NOT EXISTS (SELECT 1 FROM tenants s WHERE s.id = jobs.tenant_id AND s.status = 'suspended')`;

// Jobs are install-wide work items: the worker claims across tenants, and every job
// carries the tenant its handler must act for. Several processes may share the table: a
// claimed job carries a lease (locked_by, locked_until) its process renews while it runs,
// and only a job whose lease expired goes back to the queue. On SQLite one writer claims
// at a time; PostgreSQL's twin claims with FOR UPDATE SKIP LOCKED (repos/pg/jobs.pg.ts).
function insertJob(tenantId: string, kind: string, payload: unknown, dedupeKey: string | null, runAfter: number, now: number) {
  return sql`INSERT INTO jobs (tenant_id, kind, payload, dedupe_key, run_after, created_at, updated_at)
    VALUES (${tenantId}, ${kind}, ${JSON.stringify(payload ?? {})}, ${dedupeKey}, ${runAfter}, ${now}, ${now}) ON CONFLICT DO NOTHING`;
}

/**
 * insertJob for each row `from` gives (a FROM clause and what follows it), the payload an SQL
 * expression over the row, no dedupe key: jobs written by another repository's statement.
 */
export function insertJobsFrom(tenantId: string, kind: string, payload: Query, from: Query, now: number) {
  return sql`INSERT INTO jobs (tenant_id, kind, payload, dedupe_key, run_after, created_at, updated_at)
    SELECT ${tenantId}, ${kind}, ${payload}, NULL, CAST(${now} AS BIGINT), CAST(${now} AS BIGINT), CAST(${now} AS BIGINT) ${from}`;
}

export class JobsRepo {
  readonly owner: string;
  readonly leaseMs: number;

  constructor(
    protected readonly db: Database,
    opts: JobsRepoOptions = {},
  ) {
    this.owner = opts.owner ?? PROCESS_OWNER;
    this.leaseMs = opts.leaseMs ?? JOB_LEASE_MS;
  }

  /** Returns false when a queued job with the same dedupe key already exists. */
  async insert(tenantId: string, kind: string, payload: unknown, dedupeKey: string | null, runAfter: number, now: number): Promise<boolean> {
    return (await this.db.run(insertJob(tenantId, kind, payload, dedupeKey, runAfter, now))).changes === 1;
  }

  /** insert() when nobody reads whether it was a duplicate: in a PostgreSQL transaction it goes with the next statement. */
  async insertLater(tenantId: string, kind: string, payload: unknown, dedupeKey: string | null, runAfter: number, now: number): Promise<void> {
    await this.db.later(insertJob(tenantId, kind, payload, dedupeKey, runAfter, now));
  }

  /** Claims the oldest ready job, plus up to batch-1 more of the same kind. */
  async claim(kinds: string[], now: number, batchOf: (kind: string) => number): Promise<JobRow[]> {
    return await this.db.withTx(async () => {
      const first = await this.db.one(
        this.db.engine === 'postgres'
          ? sql<JobRow>`SELECT * FROM jobs WHERE status = 'queued' AND run_after <= ${now} AND ${JOB_TENANT_ACTIVE}
              AND kind = ANY(${kinds}::text[]) ORDER BY id LIMIT 1`
          : sql<JobRow>`SELECT * FROM jobs WHERE status = 'queued' AND run_after <= ${now} AND ${JOB_TENANT_ACTIVE}
              AND kind IN (SELECT t.value FROM json_each(${JSON.stringify(kinds)}) t) ORDER BY id LIMIT 1`,
      );
      if (!first) return [];
      const rows = await this.db.all(
        sql<JobRow>`SELECT * FROM jobs WHERE status = 'queued' AND kind = ${first.kind} AND run_after <= ${now} AND ${JOB_TENANT_ACTIVE}
            ORDER BY id LIMIT ${batchOf(first.kind)}`,
      );
      const until = now + this.leaseMs;
      for (const r of rows) {
        await this.db.run(
          sql`UPDATE jobs SET status = 'running', attempts = attempts + 1, updated_at = ${now}, locked_by = ${this.owner}, locked_until = ${until}
              WHERE id = ${r.id} AND status = 'queued'`,
        );
      }
      return rows.map((r) => ({ ...r, status: 'running' as const, attempts: r.attempts + 1, locked_by: this.owner, locked_until: until }));
    });
  }

  async complete(id: number): Promise<void> {
    await this.db.run(sql`DELETE FROM jobs WHERE id = ${id}`);
  }
  /**
   * A running job goes back to the queue unless an identical one (same dedupe key) was
   * queued meanwhile: that one does the same work, and the unique index allows one.
   */
  async retry(id: number, runAfter: number, error: string, now: number): Promise<void> {
    const r = await this.db.run(
      sql`UPDATE jobs SET status = 'queued', run_after = ${runAfter}, last_error = ${error}, updated_at = ${now}, locked_by = NULL, locked_until = NULL
          WHERE id = ${id} AND NOT EXISTS (SELECT 1 FROM jobs q WHERE q.status = 'queued' AND q.dedupe_key = jobs.dedupe_key)`,
    );
    if (r.changes === 0) await this.complete(id);
  }
  /** A retry that does not count: the failure was the machine's (a full disk), not the job's. */
  async retryTransient(id: number, runAfter: number, error: string, now: number): Promise<void> {
    const r = await this.db.run(
      sql`UPDATE jobs SET status = 'queued', attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END, run_after = ${runAfter}, last_error = ${error},
            updated_at = ${now}, locked_by = NULL, locked_until = NULL
          WHERE id = ${id} AND status = 'running'
          AND NOT EXISTS (SELECT 1 FROM jobs q WHERE q.status = 'queued' AND q.dedupe_key = jobs.dedupe_key)`,
    );
    if (r.changes === 0) await this.complete(id);
  }
  async fail(id: number, error: string, now: number): Promise<void> {
    await this.db.run(sql`UPDATE jobs SET status = 'failed', last_error = ${error}, updated_at = ${now}, locked_by = NULL, locked_until = NULL WHERE id = ${id}`);
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
    const rows = await this.db.all(
      sql<{ locked_by: string }>`SELECT DISTINCT locked_by FROM jobs WHERE status = 'running' AND locked_until > ${now} AND locked_by IS NOT NULL`,
    );
    return rows.map((r) => r.locked_by);
  }
  /** Extends this owner's leases on these running jobs; returns how many it still held. */
  async renew(ids: number[], now: number): Promise<number> {
    if (ids.length === 0) return 0;
    const until = now + this.leaseMs;
    const r = await this.db.run(
      this.db.engine === 'postgres'
        ? sql`UPDATE jobs SET locked_until = ${until} WHERE status = 'running' AND locked_by = ${this.owner}
              AND id = ANY(${ids}::bigint[])`
        : sql`UPDATE jobs SET locked_until = ${until} WHERE status = 'running' AND locked_by = ${this.owner}
              AND id IN (SELECT CAST(t.value AS BIGINT) FROM json_each(${JSON.stringify(ids)}) t)`,
    );
    return r.changes;
  }
  /**
   * A running job is orphaned when its lease expired (its process died or stalled), it has
   * none (claimed before leases), or at start-up its holder is known gone: the owner
   * starting, or a dead process of this machine (`owners`).
   */
  private orphan(now: number, owners: string[], table = 'jobs'): Query {
    const t = sql.raw(table);
    return this.db.engine === 'postgres'
      ? sql`${t}.status = 'running' AND (${t}.locked_until IS NULL OR ${t}.locked_until <= ${now} OR ${t}.locked_by = ANY(${owners}::text[]))`
      : sql`${t}.status = 'running' AND (${t}.locked_until IS NULL OR ${t}.locked_until <= ${now} OR ${t}.locked_by IN (SELECT t.value FROM json_each(${JSON.stringify(owners)}) t))`;
  }
  private async requeueOrphans(now: number, owners: string[]): Promise<number> {
    // On PostgreSQL another process may queue an identical job between the two statements
    // (read committed): the requeue then meets its copy on the dedupe index, and the next
    // attempt sees it committed and gives way to it.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.requeueOrphansOnce(now, owners);
      } catch (e) {
        if (attempt >= 3 || (e as { code?: string }).code !== UNIQUE_VIOLATION) throw e;
      }
    }
  }
  private async requeueOrphansOnce(now: number, owners: string[]): Promise<number> {
    return await this.db.withTx(async () => {
      // Requeued, it would collide with an identical job queued meanwhile (that one does the
      // work) or with an identical orphan requeued beside it (the oldest one does).
      await this.db.run(
        sql`DELETE FROM jobs WHERE ${this.orphan(now, owners)} AND dedupe_key IS NOT NULL
            AND (dedupe_key IN (SELECT q.dedupe_key FROM jobs q WHERE q.status = 'queued' AND q.dedupe_key IS NOT NULL)
              OR EXISTS (SELECT 1 FROM jobs o WHERE o.dedupe_key = jobs.dedupe_key AND o.id < jobs.id AND ${this.orphan(now, owners, 'o')}))`,
      );
      return (await this.db.run(sql`UPDATE jobs SET status = 'queued', updated_at = ${now}, locked_by = NULL, locked_until = NULL WHERE ${this.orphan(now, owners)}`))
        .changes;
    });
  }
  async depth(): Promise<number> {
    return (await this.db.value<number>(sql`SELECT count(*) FROM jobs WHERE status IN ('queued','running')`)) as number;
  }
  /** Queued and running jobs of one tenant (what /health shows its caller). */
  async depthOf(tenantId: string): Promise<number> {
    return (await this.db.value<number>(sql`SELECT count(*) FROM jobs WHERE tenant_id = ${tenantId} AND status IN ('queued','running')`)) as number;
  }
  /** Queued and running jobs of one tenant and kind (e.g. the notes waiting for their vectors). */
  async depthOfKind(tenantId: string, kind: string): Promise<number> {
    return Number(await this.db.value<number>(sql`SELECT count(*) FROM jobs WHERE tenant_id = ${tenantId} AND kind = ${kind} AND status IN ('queued','running')`));
  }
  /** When the next claimable job is due (a suspended tenant's are not: they wait for its resumption). */
  async nextRunAt(): Promise<number | null> {
    return (await this.db.value<number | null>(sql`SELECT min(run_after) FROM jobs WHERE status = 'queued' AND ${JOB_TENANT_ACTIVE}`)) ?? null;
  }
  async pendingOfKind(tenantId: string, kind: string): Promise<number> {
    return (await this.db.value<number>(sql`SELECT count(*) FROM jobs WHERE tenant_id = ${tenantId} AND kind = ${kind} AND status IN ('queued','running')`)) as number;
  }

  /** Runs fn once the caller's transaction has committed (at once outside one). */
  afterCommit(fn: () => void): void {
    this.db.afterCommit(fn);
  }
}
