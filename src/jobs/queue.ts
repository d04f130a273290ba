// The durable job queue: rows in `jobs` are the truth, p-queue only bounds how many run
// at once. Enqueue is synchronous so callers can enqueue inside their own transaction:
// the work and the job that follows it up commit together or not at all. Several
// processes may share the table: each claimed job is leased to this process, the lease is
// renewed every third of its length while the job runs, and a sweep at the same pace
// requeues the jobs whose lease expired (their process died).
import { detached } from '../db/store/transactions.js';
import PQueue from 'p-queue';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { JobRow, JobsRepo } from '../repos/jobs.repo.js';
import { isStorageError, StorageState } from '../db/storage-errors.js';
import { retryDelayMs } from './backoff.js';
import { isDeadHere } from '../process-owner.js';

/** How long the queue waits after a full disk or I/O error before claiming again. */
export const STORAGE_RETRY_MS = 2000;
/**
 * How long stop() waits for the jobs in flight before handing them back to the queue. A
 * batch of embeddings behind a busy model can take longer than a supervisor waits after
 * SIGTERM; handed back, they stay `queued` for the next start instead of `running`.
 */
export const STOP_DRAIN_MS = 5000;
/** Identical errors are logged once per interval, with a count. */
export const REPEAT_LOG_INTERVAL_MS = 60_000;

/** Logs an error once per interval per message; the next line says how many were folded. */
export class RepeatedLog {
  private readonly seen = new Map<string, { at: number; folded: number }>();
  constructor(private readonly log: Logger, private readonly clock: Clock, private readonly intervalMs = REPEAT_LOG_INTERVAL_MS) {}
  error(msg: string, err: unknown): void {
    const key = `${msg}\0${err instanceof Error ? err.message : String(err)}`;
    const now = this.clock.now();
    const s = this.seen.get(key);
    if (s && now - s.at < this.intervalMs) {
      s.folded++;
      return;
    }
    const more = s?.folded ? ` (and ${s.folded} more time(s) in the last ${Math.round((now - s.at) / 1000)} s)` : '';
    this.seen.set(key, { at: now, folded: 0 });
    // A full disk needs no stack trace: the message says it all.
    if (isStorageError(err)) this.log.warn(`${msg}${more}: ${err instanceof Error ? err.message : String(err)}`);
    else this.log.error(`${msg}${more}`, err);
  }
}

export interface Job<P = Record<string, unknown>> {
  id: number;
  tenantId: string;
  kind: string;
  payload: P;
  attempts: number;
}

// biome-ignore lint/suspicious/noExplicitAny: handlers of every payload type share one registry; each types its own.
export interface JobHandler<P = any> {
  kind: string;
  /** Jobs of this kind claimed together (embedding batches); default 1. */
  batchSize?: number;
  /** Attempts before the job is marked failed; default 5. */
  maxAttempts?: number;
  /** Wait before attempt n+1 after attempt n failed; default retryDelayMs (0.5 s doubling to 1 min). */
  retryDelayMs?(attempt: number): number;
  run(jobs: Job<P>[]): Promise<void>;
}

export interface EnqueueOptions {
  dedupeKey?: string;
  delayMs?: number;
}

export class JobQueue {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly pq: PQueue;
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private leaseTimer: NodeJS.Timeout | undefined;
  /** Ids of the jobs this process runs now: their leases are renewed. */
  private readonly inFlight = new Set<number>();
  private pumping = false;
  /** Work begun outside any job that will queue jobs (an event listener's): idle() waits for it. */
  private readonly tracked = new Set<Promise<unknown>>();
  /** How many pieces of work were ever tracked: idle() sees work that began and ended while it looked. */
  private trackedCount = 0;
  private pumpAgain = false;
  /** Set when stop() handed the unfinished jobs back: their late outcomes are not written. */
  private released = false;
  /** Storage trouble seen: wait before claiming again (no busy loop against a full disk). */
  private pauseUntil = 0;
  /** Jobs whose outcome could not be written (full disk): written as soon as the disk allows. */
  private readonly unsettled = new Map<number, { done: true } | { retryAt: number; error: string }>();
  private readonly repeated: RepeatedLog;

  constructor(
    private readonly repo: JobsRepo,
    private readonly clock: Clock,
    private readonly log: Logger,
    concurrency = 2,
    readonly storage: StorageState = new StorageState(clock),
  ) {
    this.pq = new PQueue({ concurrency });
    this.repeated = new RepeatedLog(log, clock);
  }

  register(handler: JobHandler): void {
    this.handlers.set(handler.kind, handler);
  }

  async enqueue(tenantId: string, kind: string, payload: unknown, opts: EnqueueOptions = {}): Promise<boolean> {
    const now = this.clock.now();
    const added = await this.repo.insert(tenantId, kind, payload, opts.dedupeKey ?? null, now + (opts.delayMs ?? 0), now);
    this.wakeAfterCommit();
    return added;
  }

  /**
   * enqueue() from inside the caller's transaction when the answer (added or a duplicate)
   * is not needed: on PostgreSQL the insert goes with the transaction's next statement.
   */
  async enqueueInTx(tenantId: string, kind: string, payload: unknown, opts: EnqueueOptions = {}): Promise<void> {
    const now = this.clock.now();
    await this.repo.insertLater(tenantId, kind, payload, opts.dedupeKey ?? null, now + (opts.delayMs ?? 0), now);
    this.wakeAfterCommit();
  }

  /**
   * Claims the new job once it can be seen: after the enqueuing transaction commits (a claim
   * made while it is open would find nothing, and the next look would wait for the timer).
   * For a caller that wrote its jobs in its own SQL: `queued`, asked after the commit, says
   * whether that wrote any.
   */
  wakeAfterCommit(queued: () => boolean = () => true): void {
    this.repo.afterCommit(() => {
      if (this.running && queued()) setImmediate(() => detached(() => void this.pump()));
    });
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.released = false;
    const now = this.clock.now();
    // A predecessor that died on this machine (a crash, kill -9) is known gone: its jobs
    // resume now. Any other process keeps its jobs until its lease expires.
    const resumed = await this.repo.requeueRunning(now, (await this.repo.leaseHolders(now)).filter(isDeadHere));
    if (resumed) this.log.info(`resuming ${resumed} job(s) interrupted by a previous shutdown`);
    this.running = true;
    this.leaseTimer = setInterval(() => detached(() => void this.tendLeases()), Math.max(10, Math.floor(this.repo.leaseMs / 3)));
    this.leaseTimer.unref();
    await this.pump();
  }

  /**
   * Stops claiming new work and waits up to `drainMs` for the jobs in flight (their leases
   * renewed meanwhile); those still running then go back to the queue, so a clean stop
   * leaves no job `running`. Their work is redone at the next start (every job is safe to
   * run again: an interrupted one already is, after a crash).
   */
  async stop(drainMs = STOP_DRAIN_MS): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      this.pq.onIdle().then(() => true),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), drainMs))),
    ]);
    clearTimeout(timer);
    clearInterval(this.leaseTimer);
    this.leaseTimer = undefined;
    if (drained) {
      // What a listener set off may still queue a job for the next start: let it finish.
      await Promise.race([Promise.allSettled([...this.tracked]), new Promise((r) => setTimeout(r, drainMs).unref())]);
      return;
    }
    this.released = true;
    const handedBack = [...this.inFlight];
    try {
      const n = await this.repo.requeueRunning(this.clock.now());
      this.log.info(`job queue: ${n} job(s) still running after ${drainMs} ms went back to the queue for the next start`);
    } catch (err) {
      this.log.error(`job queue: handing back ${handedBack.length} running job(s) failed; their leases requeue them at the next start`, err);
    }
    this.inFlight.clear();
  }

  /** Renews the leases of the jobs running here; requeues those whose process stopped renewing. */
  async tendLeases(): Promise<void> {
    const now = this.clock.now();
    try {
      // Running here, or done with an outcome the disk has not let us write yet.
      const ids = [...new Set([...this.inFlight, ...this.unsettled.keys()])];
      const held = await this.repo.renew(ids, now);
      if (held < ids.length) this.log.warn(`job queue: ${ids.length - held} running job(s) lost their lease (this process stalled past it); another process may run them again`);
      if (!this.running) return;
      const resumed = await this.repo.requeueExpired(now);
      if (resumed) this.log.info(`resuming ${resumed} job(s) whose process stopped renewing its lease`);
    } catch (err) {
      if (isStorageError(err)) this.storageTrouble(err);
      this.repeated.error('job queue: renewing leases failed', err);
    }
  }

  async depthOf(tenantId: string): Promise<number> {
    return await this.repo.depthOf(tenantId);
  }
  async depthOfKind(tenantId: string, kind: string): Promise<number> {
    return await this.repo.depthOfKind(tenantId, kind);
  }
  async depth(): Promise<number> {
    return await this.repo.depth();
  }

  /**
   * Deletes a finished job. Handlers that must finish a job in the same transaction as
   * their result (exactly-once captures) call this inside it; the queue's own delete after
   * the handler returns then finds nothing.
   */
  async complete(jobId: number): Promise<void> {
    await this.repo.complete(jobId);
  }

  /**
   * Counts `work` (begun outside any job, such as a listener's reaction to a committed write,
   * and likely to queue jobs) as the queue's own until it settles: idle() does not return
   * before it. Without it, idle() could return between a job's commit and the job its
   * listener queues (a PARA filing after an embedding, seen on a loaded machine).
   */
  track(work: Promise<unknown>): void {
    this.tracked.add(work);
    this.trackedCount++;
    const done = () => void this.tracked.delete(work);
    work.then(done, done);
  }

  /** Resolves when nothing is queued that is ready to run and nothing is running or tracked (tests, CLI wait). */
  async idle(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const seen = this.trackedCount;
      while (this.tracked.size) await Promise.allSettled([...this.tracked]);
      await this.pq.onIdle();
      const next = await this.repo.nextRunAt();
      // A pump between its claim and handing the jobs to the pool holds jobs neither queued
      // nor in the pool yet: not idle. Nor is it when work was tracked since this look began:
      // it may have queued a job after nextRunAt read and settled before it answered.
      const quiet = this.trackedCount === seen && !this.tracked.size;
      if (quiet && !this.pumping && this.pq.size === 0 && this.pq.pending === 0 && (next === null || next > this.clock.now())) return;
      await this.pump();
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('job queue did not become idle in time');
  }

  private async pump(): Promise<void> {
    if (this.pumping) {
      this.pumpAgain = true; // work arrived while this pump was awaiting: it goes round once more
      return;
    }
    if (!this.running) return;
    if (this.clock.now() < this.pauseUntil) return this.scheduleNext();
    this.pumping = true;
    try {
      await this.settleUnsettled();
      while (this.running && this.pq.size + this.pq.pending < this.pq.concurrency) {
        const rows = await this.repo.claim([...this.handlers.keys()], this.clock.now(), (k) => this.handlers.get(k)?.batchSize ?? 1);
        if (rows.length === 0) break;
        for (const r of rows) this.inFlight.add(r.id);
        void this.pq.add(() => this.execute(rows));
      }
    } catch (err) {
      if (isStorageError(err)) this.storageTrouble(err);
      this.repeated.error('job queue: claiming failed', err);
    } finally {
      this.pumping = false;
    }
    if (this.pumpAgain && this.running) {
      this.pumpAgain = false;
      return this.pump();
    }
    // Every slot busy: the next job to finish pumps again, so no look for the next due time
    // (under a stream of writes, each commit's wake would otherwise read it: a round trip each).
    if (this.running && this.pq.size + this.pq.pending >= this.pq.concurrency && this.clock.now() >= this.pauseUntil) return;
    await this.scheduleNext();
  }

  private async scheduleNext(): Promise<void> {
    clearTimeout(this.timer);
    if (!this.running) return;
    let wait: number;
    try {
      const next = await this.repo.nextRunAt();
      wait = next === null ? 1000 : Math.min(1000, Math.max(5, next - this.clock.now()));
    } catch {
      wait = 1000;
    }
    if (this.pauseUntil > this.clock.now()) wait = Math.max(wait, this.pauseUntil - this.clock.now());
    this.timer = setTimeout(() => detached(() => void this.pump()), wait);
    this.timer.unref();
  }

  private async execute(rows: JobRow[]): Promise<void> {
    const handler = this.handlers.get(rows[0].kind)!;
    const jobs: Job[] = rows.map((r) => ({ id: r.id, tenantId: r.tenant_id, kind: r.kind, payload: JSON.parse(r.payload), attempts: r.attempts }));
    let ran = false;
    try {
      await handler.run(jobs);
      if (this.released) return; // handed back by stop(): queued again, its outcome unwritten
      ran = true;
      for (const j of jobs) this.unsettled.set(j.id, { done: true });
      await this.settleUnsettled();
    } catch (e) {
      if (this.released) return;
      const err = e instanceof Error ? e : new Error(String(e));
      if (ran) this.storageTrouble(err); // the work is done; only its deletion waits for space
      else if (isStorageError(err)) for (const j of jobs) await this.settleStorageFailure(j, err);
      else for (const j of jobs) await this.settleFailure(handler, j, err);
    } finally {
      for (const j of jobs) this.inFlight.delete(j.id);
      setImmediate(() => detached(() => void this.pump()));
    }
  }

  private storageTrouble(err: unknown): void {
    this.storage.failed(err);
    this.pauseUntil = this.clock.now() + STORAGE_RETRY_MS;
  }

  /**
   * A full disk or I/O error is transient: the job goes back to the queue with its attempt
   * refunded (it can never end `failed` for it). If even that cannot be written, it is
   * remembered and written as soon as the disk allows, so it never stays `running`.
   */
  private async settleStorageFailure(job: Job, err: Error): Promise<void> {
    this.storageTrouble(err);
    this.repeated.error(`job ${job.kind}: the disk refused a write, will retry`, err);
    this.unsettled.set(job.id, { retryAt: this.clock.now() + STORAGE_RETRY_MS, error: err.message });
    try {
      await this.settleUnsettled();
    } catch {
      /* stays unsettled: retried by the next pump */
    }
  }

  /** Writes the outcomes the disk refused earlier; throws (leaving the rest) if it still refuses. */
  private async settleUnsettled(): Promise<void> {
    for (const [id, what] of this.unsettled) {
      try {
        if ('done' in what) await this.repo.complete(id);
        else await this.repo.retryTransient(id, what.retryAt, what.error, this.clock.now());
      } catch (e) {
        if (isStorageError(e)) this.storageTrouble(e);
        throw e;
      }
      this.unsettled.delete(id);
    }
  }

  private async settleFailure(handler: JobHandler, job: Job, err: Error): Promise<void> {
    const now = this.clock.now();
    const max = handler.maxAttempts ?? 5;
    try {
      if (job.attempts < max) {
        const backoff = (handler.retryDelayMs ?? retryDelayMs)(job.attempts);
        this.log.info(`job ${job.kind}#${job.id} failed (attempt ${job.attempts}/${max}), retrying in ${backoff} ms: ${err.message}`);
        await this.repo.retry(job.id, now + backoff, err.message, now);
        return;
      }
      this.log.error(`job ${job.kind}#${job.id} failed for good`, err);
      await this.repo.fail(job.id, err.message, now);
    } catch (inner) {
      this.log.error(`job ${job.kind}#${job.id}: recording the failure failed`, inner);
    }
  }
}
