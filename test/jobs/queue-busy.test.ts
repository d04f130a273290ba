// A queue whose every slot is busy does not look up the next due time when a commit wakes
// it: the next job to finish pumps again. Under a stream of writes (each enqueue's commit
// wakes the queue) that lookup was a statement per write.
import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { openDatabase } from '../../src/db/open.js';
import { SqliteStore } from '../../src/db/store/sqlite-store.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { memoryLogger } from '../../src/logger.js';
import { JobsRepo } from '../../src/repos/jobs.repo.js';

const until = async (ok: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 200 && !(await ok()); i++) await new Promise((r) => setTimeout(r, 5));
  expect(await ok()).toBe(true);
};

describe('a busy job queue', () => {
  it('reads no due time while its slots are full, and runs what was queued meanwhile once one frees', async () => {
    const db = new SqliteStore(openDatabase(':memory:'));
    const repo = new JobsRepo(db);
    const queue = new JobQueue(repo, new ManualClock(), memoryLogger(), 1);
    const done: number[] = [];
    let release!: () => void;
    const first = new Promise<void>((r) => (release = r));
    queue.register({ kind: 'k', run: async (jobs) => {
      if (jobs[0].payload.i === 0) await first;
      done.push(jobs[0].payload.i as number);
    } });
    await queue.start();
    await queue.enqueue('t', 'k', { i: 0 });
    await until(() => queue['inFlight'].size === 1);
    const reads = vi.spyOn(repo, 'nextRunAt');
    for (let i = 1; i <= 5; i++) await queue.enqueue('t', 'k', { i });
    await new Promise((r) => setTimeout(r, 30)); // the five commits' wakes have pumped
    expect(reads).not.toHaveBeenCalled();
    release();
    await until(() => done.length === 6);
    expect(done).toEqual([0, 1, 2, 3, 4, 5]);
    await queue.stop();
    await db.close();
  });
});
