// idle() counts work begun outside any job that queues jobs (queue.track): a listener that
// reacts to a job's commit by queueing another (the PARA filing after an embedding) is not
// "idle" in between. Seen without it on a loaded machine: idle() returned before the filing.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { openDatabase } from '../../src/db/open.js';
import { SqliteStore } from '../../src/db/store/sqlite-store.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { memoryLogger } from '../../src/logger.js';
import { JobsRepo } from '../../src/repos/jobs.repo.js';

describe('a job queue and the work its jobs set off', () => {
  it('idle() waits for tracked work and the jobs it queues; stop() lets tracked work finish', async () => {
    const db = new SqliteStore(openDatabase(':memory:'));
    const queue = new JobQueue(new JobsRepo(db), new ManualClock(), memoryLogger(), 2);
    const done: string[] = [];
    const slowly = async (kind: string) => {
      await new Promise((r) => setTimeout(r, 80)); // a listener's statements on a slow machine
      await queue.enqueue('t', kind, {});
    };
    queue.register({ kind: 'embed', run: async () => {
      done.push('embed');
      // As the embedding's listener does: queued after the job, not awaited by it.
      queue.track(slowly('file'));
    } });
    queue.register({ kind: 'file', run: async () => void done.push('file') });
    await queue.start();
    await queue.enqueue('t', 'embed', {});
    await queue.idle();
    expect(done).toEqual(['embed', 'file']);

    // Tracked work that fails is still done with; stop() waits for what is under way.
    queue.track(Promise.reject(new Error('listener failed')));
    let finished = false;
    queue.track(new Promise((r) => setTimeout(r, 50)).then(() => (finished = true)));
    await queue.idle();
    await queue.stop();
    expect(finished).toBe(true);
    await db.close();
  });

  it('idle() is not fooled by tracked work that queues a job while it reads the next run time', async () => {
    // Seen in CI on PostgreSQL: the next-run read (one pooled connection) saw no job; the
    // listener's insert (another connection) answered in the same turn of the event loop,
    // before that read, so its tracked work had settled and the pump it woke had not yet run
    // when idle() looked: idle() returned with the PARA filing still queued.
    const db = new SqliteStore(openDatabase(':memory:'));
    const repo = new JobsRepo(db);
    let listening = false;
    let inserted!: () => void;
    const insertedP = new Promise<void>((r) => (inserted = r));
    const insert = repo.insert.bind(repo);
    repo.insert = async (...a: Parameters<JobsRepo['insert']>) => {
      const added = await insert(...a);
      if (a[1] === 'file') inserted();
      return added;
    };
    const read = repo.nextRunAt.bind(repo);
    repo.nextRunAt = async () => {
      const next = await read();
      if (listening) {
        await insertedP; // the read answers just after the insert, in the same turn
        for (let i = 0; i < 20; i++) await null;
      }
      return next;
    };
    const queue = new JobQueue(repo, new ManualClock(), memoryLogger(), 2);
    const done: string[] = [];
    queue.register({ kind: 'embed', run: async () => {
      await new Promise((r) => setTimeout(r, 50)); // idle() is waiting for the pool meanwhile
      done.push('embed');
      listening = true;
      queue.track(new Promise((r) => setTimeout(r, 40)).then(async () => {
        await queue.enqueue('t', 'file', {});
        listening = false;
      }));
    } });
    queue.register({ kind: 'file', run: async () => void done.push('file') });
    await queue.start();
    await queue.enqueue('t', 'embed', {});
    await queue.idle();
    expect(done).toEqual(['embed', 'file']);
    await queue.stop();
    await db.close();
  });
});
