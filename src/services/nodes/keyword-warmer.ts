// Keeps the keyword module's memory warm (search/keyword/), so a query does not wait for
// its terms' postings to be read. At start-up each tenant's terms held by at least
// KEPT_TERM_FLOOR notes are read into memory, most held first, until the module's memory
// cap is nearly full (ranker.warm), a batch at a time with a pause between (requests
// interleave); rarer terms are read by the first query needing them.
// Writes are taken in by each query (the change log); once a tenant has taken in many,
// its kept index is read again in the background.
import type { Logger } from '../../logger.js';
import type { KeywordRanker } from '../../search/keyword/ranker.js';

/** Terms held by fewer nodes are read when a query first needs them (well under a millisecond). */
export const KEPT_TERM_FLOOR = 64;
const TICK_MS = 500;

/** A pause between batches long enough for pending requests to be read and answered. */
const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

export class KeywordWarmer {
  private timer?: NodeJS.Timeout;
  private busy = false;
  private stopped = false;

  constructor(
    private readonly ranker: KeywordRanker,
    private readonly tenantIds: () => Promise<string[]>,
    private readonly log: Logger,
    private readonly opts: { keepInMemory?: boolean; floor?: number } = {},
  ) {}

  /** Reads the tenant's terms held by enough notes into memory; resolves with how many. */
  async keep(tenantId: string): Promise<number> {
    if (this.opts.keepInMemory === false) return 0;
    return this.ranker.warm(tenantId, this.opts.floor ?? KEPT_TERM_FLOOR, async () => {
      await new Promise<void>((resolve) => setImmediate(resolve)); // between 8 ms slices: pending requests go first
      return !this.stopped;
    });
  }

  /** Warms every tenant, then reads again those worn by writes, on a timer until stop() (after which it never starts again: the database is closing). */
  start(): void {
    if (this.stopped || this.timer) return;
    void this.run(async () => {
      await turn(); // never inside the caller's start-up work
      const t0 = Date.now();
      let terms = 0;
      for (const id of await this.tenantIds()) terms += await this.keep(id);
      this.log.info(`keyword index warm: ${terms} term(s) kept in memory (${Math.round(this.ranker.cache.bytes() / 1e6)} MB) in ${Date.now() - t0} ms`);
    });
    this.timer = setInterval(() => void this.run(() => this.refresh()), TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Reads again the kept index of tenants that took in many writes; resolves with how many. */
  async refresh(): Promise<number> {
    let done = 0;
    for (const id of this.ranker.cache.tenantIds()) {
      if (this.stopped || !this.ranker.stale(id)) continue;
      this.ranker.evictTenant(id);
      await this.keep(id);
      done++;
    }
    return done;
  }

  private async run(work: () => Promise<unknown>): Promise<void> {
    if (this.busy || this.stopped) return;
    this.busy = true;
    try {
      await work();
    } catch (e) {
      if (!this.stopped) this.log.error('keyword warm-up failed; keyword search still works', e);
    } finally {
      this.busy = false;
    }
  }
}
