// Job leases on SQLite: a running job belongs to the process whose lease it carries. A
// process starting up (or sweeping) requeues only jobs whose lease expired or that have
// none; a live process renews its leases while its jobs run, so nobody takes them away.
import { raw } from '../helpers/raw.js';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ManualClock, systemClock } from '../../src/clock.js';
import { openDatabase } from '../../src/db/open.js';
import type { Database as Db } from '../../src/db/store/contract.js';
import { SqliteStore } from '../../src/db/store/sqlite-store.js';
import { isDeadHere, PROCESS_OWNER } from '../../src/process-owner.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { memoryLogger } from '../../src/logger.js';
import { JobsRepo } from '../../src/repos/jobs.repo.js';

const LEASE = 30_000;

async function row(db: Db, id: number) {
  return await raw(db).prepare('SELECT status, attempts, locked_by, locked_until FROM jobs WHERE id = ?').get(id) as
    | { status: string; attempts: number; locked_by: string | null; locked_until: number | null }
    | undefined;
}

describe('job leases', () => {
  it('a job leased by another live process is not requeued at start-up, and is once the lease expired', async () => {
    const db = new SqliteStore(openDatabase(':memory:'));
    const clock = new ManualClock();
    const a = new JobsRepo(db, { owner: 'proc-a', leaseMs: LEASE });
    await a.insert('t', 'k', { n: 1 }, null, 0, 0);
    const [job] = await a.claim(['k'], clock.now(), () => 1);
    expect(await row(db, job.id)).toEqual({ status: 'running', attempts: 1, locked_by: 'proc-a', locked_until: clock.now() + LEASE });

    // Process B starts while A still holds the job.
    clock.advance(1_000);
    const b = new JobsRepo(db, { owner: 'proc-b', leaseMs: LEASE });
    const log = memoryLogger();
    const queue = new JobQueue(b, clock, log, 1);
    const ran: number[] = [];
    queue.register({ kind: 'k', run: async (jobs) => void ran.push(...jobs.map((j) => j.id)) });
    await queue.start();
    await queue.idle();
    expect(await row(db, job.id)).toMatchObject({ status: 'running', locked_by: 'proc-a' });
    expect(ran).toEqual([]);
    await queue.tendLeases(); // B's sweep: A's lease has 29 s to go
    await queue.idle();
    expect(ran).toEqual([]);

    // A died: nobody renews. When the lease ends, B's sweep requeues the job and runs it.
    clock.advance(LEASE - 1_001);
    await queue.tendLeases();
    expect(await row(db, job.id)).toMatchObject({ status: 'running', locked_by: 'proc-a' }); // 1 ms to go: still A's
    clock.advance(1);
    await queue.tendLeases();
    await queue.idle();
    await queue.stop();
    expect(ran).toEqual([job.id]);
    expect(await row(db, job.id)).toBeUndefined();
    expect(log.lines.join('\n')).toMatch(/resuming 1 job\(s\) whose process stopped renewing its lease/);
  });

  it('a start-up requeues at once the jobs with no lease and those leased to the starting owner', async () => {
    const db = new SqliteStore(openDatabase(':memory:'));
    const a = new JobsRepo(db, { owner: 'proc-a', leaseMs: LEASE });
    await a.insert('t', 'k', { n: 1 }, null, 0, 0);
    await a.insert('t', 'k', { n: 2 }, null, 0, 0);
    await a.insert('t', 'k', { n: 3 }, null, 0, 0);
    const [j1, j2, j3] = await a.claim(['k'], 0, () => 3);
    await raw(db).prepare('UPDATE jobs SET locked_by = NULL, locked_until = NULL WHERE id = ?').run(j1.id); // claimed before leases existed
    await raw(db).prepare("UPDATE jobs SET locked_by = 'proc-b' WHERE id = ?").run(j2.id);
    expect(await new JobsRepo(db, { owner: 'proc-b', leaseMs: LEASE }).requeueRunning(10)).toBe(2); // the lease-less one and its own
    expect([(await row(db, j1.id))?.status, (await row(db, j2.id))?.status, (await row(db, j3.id))?.status]).toEqual(['queued', 'queued', 'running']);
    expect(await row(db, j2.id)).toMatchObject({ locked_by: null, locked_until: null });
    // proc-a's lease on j3 runs to LEASE: a third process starting then requeues it.
    const c = new JobsRepo(db, { owner: 'proc-c', leaseMs: LEASE });
    expect(await c.requeueRunning(LEASE - 1)).toBe(0);
    expect(await c.requeueRunning(LEASE)).toBe(1);
    expect((await row(db, j3.id))?.status).toBe('queued');
  });

  it('a running job\'s lease is renewed while it runs, so another process\'s sweep leaves it alone', async () => {
    const db = new SqliteStore(openDatabase(':memory:'));
    const a = new JobsRepo(db, { owner: 'proc-a', leaseMs: 300 }); // renewed every 100 ms
    const b = new JobsRepo(db, { owner: 'proc-b', leaseMs: 300 });
    const queue = new JobQueue(a, systemClock, memoryLogger(), 1);
    let release!: () => void;
    const started = new Promise<void>((ok) =>
      queue.register({ kind: 'slow', run: () => new Promise<void>((done) => ((release = done), ok())) }),
    );
    await queue.enqueue('t', 'slow', {});
    await queue.start();
    await started;
    const first = (await row(db, 1))!.locked_until!;
    let requeued = 0;
    for (let i = 0; i < 16; i++) {
      await new Promise((r) => setTimeout(r, 50));
      requeued += await b.requeueExpired(Date.now()); // B sweeps every 50 ms, for three lease lengths
    }
    expect(requeued).toBe(0);
    expect(await row(db, 1)).toMatchObject({ status: 'running', locked_by: 'proc-a', attempts: 1 });
    expect((await row(db, 1))!.locked_until!).toBeGreaterThan(first + 500);
    release();
    await queue.stop();
    expect(await row(db, 1)).toBeUndefined();
  });

  it('a retry or a failure releases the lease', async () => {
    const db = new SqliteStore(openDatabase(':memory:'));
    const a = new JobsRepo(db, { owner: 'proc-a', leaseMs: LEASE });
    await a.insert('t', 'k', {}, null, 0, 0);
    await a.insert('t', 'k', {}, null, 0, 0);
    const [j1, j2] = await a.claim(['k'], 0, () => 2);
    expect(await a.renew([j1.id, j2.id, 999], 5)).toBe(2);
    expect((await row(db, j1.id))?.locked_until).toBe(5 + LEASE);
    expect(await new JobsRepo(db, { owner: 'proc-b' }).renew([j1.id], 5)).toBe(0); // not B's to renew
    await a.retry(j1.id, 100, 'busy', 10);
    await a.fail(j2.id, 'bad', 10);
    expect(await row(db, j1.id)).toMatchObject({ status: 'queued', locked_by: null, locked_until: null });
    expect(await row(db, j2.id)).toMatchObject({ status: 'failed', locked_by: null, locked_until: null });
    expect(await a.renew([j1.id], 20)).toBe(0);
  });

  it('a process that died on this machine is known gone: its jobs resume at once at start-up', async () => {
    const here = PROCESS_OWNER.split('/').slice(0, -2).join('/');
    const child = spawnSync(process.execPath, ['-e', '']); // a process that has exited
    const dead = `${here}/${child.pid}/0badc0de`;
    expect(isDeadHere(dead)).toBe(true);
    expect(isDeadHere(`${here}/${process.ppid}/0badc0de`)).toBe(false); // alive
    expect(isDeadHere(PROCESS_OWNER)).toBe(false);
    expect(isDeadHere(`elsewhere.example/4026531836/${child.pid}/0badc0de`)).toBe(false); // another machine: wait for its lease
    expect(isDeadHere('not an owner')).toBe(false);

    const db = new SqliteStore(openDatabase(':memory:'));
    const clock = new ManualClock();
    await new JobsRepo(db, { owner: dead, leaseMs: LEASE }).insert('t', 'k', { n: 1 }, null, 0, 0);
    await new JobsRepo(db, { owner: dead, leaseMs: LEASE }).claim(['k'], clock.now(), () => 1);
    await new JobsRepo(db, { owner: 'live-elsewhere', leaseMs: LEASE }).insert('t', 'k', { n: 2 }, null, 0, 0);
    await new JobsRepo(db, { owner: 'live-elsewhere', leaseMs: LEASE }).claim(['k'], clock.now(), () => 1);
    const log = memoryLogger();
    const queue = new JobQueue(new JobsRepo(db, { leaseMs: LEASE }), clock, log, 1);
    const ran: unknown[] = [];
    queue.register({ kind: 'k', run: async (jobs) => void ran.push(...jobs.map((j) => j.payload.n)) });
    await queue.start();
    await queue.idle();
    await queue.stop();
    expect(ran).toEqual([1]); // the dead predecessor's job; the live holder keeps job 2
    expect(log.lines.join('\n')).toMatch(/resuming 1 job\(s\) interrupted/);
  });
});
