// The embedding scheduler with hand-driven lanes: what each model call holds and in which
// order, so the rules (queries first, batched; background in chunks; fifo) are checked
// without timing.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCHEDULER, EmbedScheduler, type Lane } from '../../src/embed/embed-scheduler.js';

class FakeLane implements Lane {
  calls: string[][] = [];
  private waiting: { texts: string[]; resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }[] = [];
  ready = true;
  get busy() {
    return this.waiting.length > 0;
  }
  run(texts: string[]) {
    this.calls.push(texts);
    return new Promise<Float32Array[]>((resolve, reject) => this.waiting.push({ texts, resolve, reject }));
  }
  /** Finishes the call in flight (each text's vector holds its length) and lets the scheduler go on. */
  async finish(error?: string) {
    const w = this.waiting.shift()!;
    if (error) w.reject(new Error(error));
    else w.resolve(w.texts.map((t) => Float32Array.of(t.length)));
    await new Promise((r) => setTimeout(r, 0));
  }
}

/** No holding back after queries, for the tests that are not about it. */
const EAGER = { ...DEFAULT_SCHEDULER, queryQuietMs: 0, queryWindowMs: 0 };

const texts = (prefix: string, n: number, len = 10) => Array.from({ length: n }, (_, i) => `${prefix}${i}`.padEnd(len, '.'));

describe('embedding scheduler', () => {
  it('a query waits for one background chunk at most, then goes first', async () => {
    const lane = new FakeLane();
    const s = new EmbedScheduler(() => [lane], EAGER);
    const bg = s.submit(texts('note', 10), 'background');
    expect(lane.calls[0]).toHaveLength(DEFAULT_SCHEDULER.sharedChunkTexts);
    const q = s.submit(['what is a gluon'], 'query');
    await lane.finish();
    expect(lane.calls[1]).toEqual(['what is a gluon']);
    await lane.finish();
    expect((await q)[0][0]).toBe('what is a gluon'.length);
    while (lane.busy) await lane.finish();
    const vectors = await bg;
    expect(vectors).toHaveLength(10);
    expect(vectors.every((v) => v[0] === 10)).toBe(true);
  });

  it('queries that arrive while the model is busy go in one call, each getting its own vector', async () => {
    const lane = new FakeLane();
    const s = new EmbedScheduler(() => [lane], EAGER);
    const first = s.submit(['a'], 'query');
    const more = ['bb', 'ccc', 'dddd'].map((t) => s.submit([t], 'query'));
    expect(lane.calls).toEqual([['a']]);
    await lane.finish();
    expect(lane.calls[1]).toEqual(['bb', 'ccc', 'dddd']);
    await lane.finish();
    expect((await first)[0][0]).toBe(1);
    expect((await Promise.all(more)).map((v) => v[0][0])).toEqual([2, 3, 4]);
    expect(s.stats).toMatchObject({ queryTexts: 4, queryCalls: 2 });
  });

  it('background chunks on the shared lane stay under the character budget, but always take one text', async () => {
    const lane = new FakeLane();
    const s = new EmbedScheduler(() => [lane], EAGER);
    const done = s.submit([...texts('long', 2, 5000), ...texts('short', 3, 100)], 'background');
    expect(lane.calls[0]).toHaveLength(1);
    await lane.finish();
    expect(lane.calls[1]).toHaveLength(1);
    await lane.finish();
    expect(lane.calls[2]).toHaveLength(DEFAULT_SCHEDULER.sharedChunkTexts);
    while (lane.busy) await lane.finish();
    expect((await done).map((v) => v[0])).toEqual([5000, 5000, 100, 100, 100]);
  });

  it('a query that finds the model idle waits a few ms for others to share its call', async () => {
    const lane = new FakeLane();
    const s = new EmbedScheduler(() => [lane], { ...DEFAULT_SCHEDULER, queryWindowMs: 20 });
    const a = s.submit(['a'], 'query');
    await new Promise((r) => setTimeout(r, 2));
    const b = s.submit(['bb'], 'query');
    expect(lane.calls).toEqual([]);
    await new Promise((r) => setTimeout(r, 40));
    expect(lane.calls).toEqual([['a', 'bb']]);
    await lane.finish();
    expect([(await a)[0][0], (await b)[0][0]]).toEqual([1, 2]);
  });

  it('while searches keep coming, background work on the shared lane waits for a quiet spell, but not for ever', async () => {
    const lane = new FakeLane();
    const s = new EmbedScheduler(() => [lane], { ...DEFAULT_SCHEDULER, queryWindowMs: 0, queryQuietMs: 60, maxBackgroundWaitMs: 5_000 });
    void s.submit(['q1'], 'query');
    const notes = s.submit(texts('note', 2), 'background');
    await lane.finish(); // q1 answered: the notes wait, a query came 0 ms ago
    expect(lane.calls).toHaveLength(1);
    const started = Date.now();
    while (!lane.busy && Date.now() - started < 2_000) await new Promise((r) => setTimeout(r, 5));
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    expect(lane.calls[1]).toEqual(texts('note', 2));
    await lane.finish();
    expect(await notes).toHaveLength(2);

    // with queries arriving all the time, a chunk still goes after maxBackgroundWaitMs
    const starving = new EmbedScheduler(() => [lane], { ...DEFAULT_SCHEDULER, queryWindowMs: 0, queryQuietMs: 10_000, maxBackgroundWaitMs: 50 });
    void starving.submit(['q2'], 'query');
    const more = starving.submit(texts('more', 1), 'background');
    await lane.finish();
    const t0 = Date.now();
    while (!lane.busy && Date.now() - t0 < 2_000) await new Promise((r) => setTimeout(r, 5));
    expect(lane.calls.at(-1)).toEqual(texts('more', 1));
    await lane.finish();
    expect(await more).toHaveLength(1);
  });

  it('with a background lane, the foreground lane keeps itself free for queries', async () => {
    const fg = new FakeLane();
    const bg = new FakeLane();
    const s = new EmbedScheduler(() => [fg, bg], EAGER);
    const notes = s.submit(texts('note', 40), 'background');
    expect(fg.calls).toEqual([]);
    expect(bg.calls[0]).toHaveLength(DEFAULT_SCHEDULER.backgroundChunkTexts);
    const q = s.submit(['query'], 'query');
    expect(fg.calls).toEqual([['query']]);
    await fg.finish();
    await q;
    await bg.finish();
    expect(fg.calls).toHaveLength(1);
    expect(bg.calls[1]).toHaveLength(8);
    await bg.finish();
    expect(await notes).toHaveLength(40);
  });

  it('a background lane still loading leaves the work to the foreground lane', async () => {
    const fg = new FakeLane();
    const bg = new FakeLane();
    bg.ready = false;
    const s = new EmbedScheduler(() => [fg, bg], EAGER);
    void s.submit(texts('note', 2), 'background');
    expect(fg.calls).toHaveLength(1);
    expect(bg.calls).toHaveLength(0);
  });

  it('fifo sends whole requests in arrival order, queries included', async () => {
    const lane = new FakeLane();
    const s = new EmbedScheduler(() => [lane], { ...EAGER, policy: 'fifo' });
    const bg = s.submit(texts('note', 40), 'background');
    const q1 = s.submit(['q1'], 'query');
    const q2 = s.submit(['q2'], 'query');
    expect(lane.calls[0]).toHaveLength(40);
    await lane.finish();
    expect(lane.calls[1]).toEqual(['q1']);
    await lane.finish();
    expect(lane.calls[2]).toEqual(['q2']);
    await lane.finish();
    await Promise.all([bg, q1, q2]);
  });

  it('a failed chunk fails its own request only; the next request is served', async () => {
    const lane = new FakeLane();
    const s = new EmbedScheduler(() => [lane], EAGER);
    const broken = s.submit(texts('a', 8), 'background');
    const fine = s.submit(texts('b', 2), 'background');
    const failed = expect(broken).rejects.toThrow('model exploded');
    await lane.finish('model exploded');
    await failed;
    expect(lane.calls[1]).toEqual(texts('b', 2));
    await lane.finish();
    expect(await fine).toHaveLength(2);
  });

  it('failAll rejects everything queued', async () => {
    const lane = new FakeLane();
    const s = new EmbedScheduler(() => [lane], EAGER);
    void s.submit(['busy'], 'query');
    const waiting = s.submit(['q'], 'query');
    const bg = s.submit(['n'], 'background');
    s.failAll(new Error('closed'));
    await expect(waiting).rejects.toThrow('closed');
    await expect(bg).rejects.toThrow('closed');
  });
});
