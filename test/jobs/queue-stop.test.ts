// A clean stop leaves no job `running`: stop() waits a while for the jobs in flight, then
// hands the unfinished ones back to the queue (a batch of embeddings behind a busy model
// once outlived the supervisor's patience, and 32 jobs stayed `running` until the next start).
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { openDatabase } from '../../src/db/open.js';
import { SqliteStore } from '../../src/db/store/sqlite-store.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { memoryLogger } from '../../src/logger.js';
import { JobsRepo } from '../../src/repos/jobs.repo.js';

function setup() {
  const db = new SqliteStore(openDatabase(':memory:'));
  const repo = new JobsRepo(db);
  const log = memoryLogger();
  const queue = new JobQueue(repo, new ManualClock(), log, 2);
  const count = async (status: string) => await db.prepare('SELECT count(*) FROM jobs WHERE status = ?').pluck().get(status) as number;
  return { queue, log, count };
}

const until = async (ok: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 200 && !(await ok()); i++) await new Promise((r) => setTimeout(r, 5));
  expect(await ok()).toBe(true);
};

describe('stopping the job queue', () => {
  it('hands a batch that does not finish in time back to the queue: none stays running', { timeout: 3000 }, async () => {
    const { queue, log, count } = setup();
    let finish!: () => void;
    const stuck = new Promise<void>((r) => (finish = r));
    queue.register({ kind: 'embed', batchSize: 32, run: () => stuck });
    for (let i = 0; i < 40; i++) await queue.enqueue('t', 'embed', { i }, { dedupeKey: `e${i}` });
    await queue.start();
    await until(async () => (await count('running')) === 40);
    await queue.stop(50);
    expect(await count('running')).toBe(0);
    expect(await count('queued')).toBe(40);
    // The batch ending after the stop writes nothing: the jobs stay queued for the next start.
    finish();
    await new Promise((r) => setTimeout(r, 20));
    expect(await count('queued')).toBe(40);
    expect(log.lines.join('')).toContain('went back to the queue');
    expect(log.lines.join('')).not.toContain('ERROR');
  });

  it('waits for jobs that finish within the drain, and removes them as done', async () => {
    const { queue, count } = setup();
    queue.register({ kind: 'k', run: () => new Promise((r) => setTimeout(r, 30)) });
    await queue.enqueue('t', 'k', {});
    await queue.start();
    await until(async () => (await count('running')) === 1);
    await queue.stop(2000);
    expect(await count('running') + await count('queued')).toBe(0);
  });
});
