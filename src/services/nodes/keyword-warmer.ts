// Keeps the keyword side's memory warm, so a query does not pay FTS5 for scoring the
// postings of its words. At start-up each tenant's terms held by enough notes are read into
// memory (repos/kept-postings.repo.ts), and read again once writes have worn them and the
// tenant has been quiet for a moment. A tenant too small for that has its most common
// terms' contributions scored ahead instead (repos/term-impacts.repo.ts), scored again
// after writes. Work is sliced across event-loop turns, so requests interleave.
import type { Logger } from '../../logger.js';
import type { SearchRepo } from '../../repos/search.repo.js';
import { impactBudget } from '../../repos/term-impacts.repo.js';

/** A term is pre-warmed when at least this share of the tenant's notes hold it (cheaper ones cost ~5 ms cold). */
export const PREWARM_SHARE = 0.08;
export const PREWARM_MAX_TERMS = 64;
/** Stale terms are refreshed after the tenant has not written for this long. */
export const REFRESH_QUIET_MS = 1500;
/**
 * Up to this many notes, reading a tenant's terms again costs well under a second of
 * slices, so writes wearing them out trigger it without waiting for quiet (a tenant
 * writing steadily would otherwise have more and more of each query scored by FTS5).
 */
export const CHEAP_KEEP_NOTES = 20_000;
/** ...once new notes pass this share of the kept ones (a larger tenant: DIRTY_NEW_SHARE, after quiet). */
const CHEAP_NEW_SHARE = 0.25;
const TICK_MS = 500;

/** A pause between terms long enough for pending requests to be read and answered. */
const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

export class KeywordWarmer {
  private timer?: NodeJS.Timeout;
  private busy = false;
  private stopped = false;

  constructor(
    private readonly repo: SearchRepo,
    private readonly tenantIds: () => Promise<string[]>,
    private readonly log: Logger,
    private readonly opts: { keepInMemory?: boolean; cheapKeepNotes?: number } = {},
  ) {}

  /** Scores the tenant's most common terms, yielding between terms; resolves with how many. */
  async prewarm(tenantId: string): Promise<number> {
    const n = this.repo.keywords.rows(tenantId);
    if (n === 0) return 0;
    const terms = this.repo.impacts.commonTerms(tenantId, Math.max(1000, Math.ceil(n * PREWARM_SHARE)), PREWARM_MAX_TERMS);
    let done = 0;
    for (const p of terms) {
      // Most common first; past the budget a term would only evict one scored before it.
      if (this.stopped || this.repo.impacts.heldBytes() >= impactBudget(n) * 0.9) break;
      this.repo.impacts.get(tenantId, p);
      done++;
      await turn();
    }
    return done;
  }

  /**
   * Reads the tenant's terms held by at least the kept floor of notes into memory
   * (kept-postings.repo.ts; a tenant with fewer notes is declined until it writes).
   * Resolves with whether it did.
   */
  async keep(tenantId: string): Promise<boolean> {
    if (this.opts.keepInMemory === false) return false;
    return this.repo.kept.build(tenantId, Infinity, () => this.stopped);
  }

  /** Pre-warms every tenant, then refreshes stale terms on a timer until stop() (after which it never starts again: the database is closing). */
  start(): void {
    if (this.stopped || this.timer) return;
    void this.run(async () => {
      await turn(); // never inside the caller's start-up work
      const t0 = Date.now();
      let terms = 0;
      let kept = 0;
      for (const id of await this.tenantIds()) {
        // Kept postings answer common terms too; scoring them ahead is for tenants without.
        if (await this.keep(id)) kept += this.repo.kept.termCount(id);
        else terms += await this.prewarm(id);
      }
      const parts = [
        ...(kept ? [`${kept} term(s) kept in memory (${Math.round(this.repo.kept.heldBytes() / 1e6)} MB)`] : []),
        ...(terms || !kept ? [`${terms} common term(s) scored (${Math.round(this.repo.impacts.heldBytes() / 1e6)} MB)`] : []),
      ];
      this.log.info(`keyword index warm: ${parts.join(', ')} in ${Date.now() - t0} ms`);
    });
    this.timer = setInterval(() => void this.run(() => this.refresh()), TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    void this.repo.kept.close();
  }

  /** Scores again the kept terms of tenants that wrote and have since been quiet, and reads their terms into memory again once writes have worn them. */
  async refresh(): Promise<number> {
    let done = 0;
    for (const id of await this.tenantIds()) {
      const quiet = this.repo.keywords.quietFor(id) >= REFRESH_QUIET_MS;
      const cheapNotes = this.opts.cheapKeepNotes ?? CHEAP_KEEP_NOTES;
      const keptNotes = this.repo.kept.keptNotes(id);
      // In memory first (no query a tick); the tenant's size only for one worth reading.
      if (this.opts.keepInMemory !== false && this.repo.kept.stale(id, keptNotes && keptNotes <= cheapNotes ? CHEAP_NEW_SHARE : undefined)) {
        const cheap = (keptNotes || this.repo.keywords.rows(id)) <= cheapNotes;
        if ((quiet || cheap) && (await this.keep(id))) done++;
      }
      if (!quiet) continue;
      for (const p of this.repo.impacts.stale(id)) {
        if (this.stopped || this.repo.keywords.quietFor(id) < REFRESH_QUIET_MS) break;
        this.repo.impacts.get(id, p);
        done++;
        await turn();
      }
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
