// Keeps the keyword side's kept term contributions (repos/term-impacts.repo.ts) warm, so
// a query with a common word does not pay for scoring its postings: at start-up each
// tenant's most common terms are scored in the background, and after writes the kept
// terms that went stale are scored again once the tenant has been quiet for a moment.
// One term per event-loop turn (a term held by every one of 100k notes takes ~30 ms), so
// requests interleave.
import type { Logger } from '../../logger.js';
import type { SearchRepo } from '../../repos/search.repo.js';
import { impactBudget } from '../../repos/term-impacts.repo.js';

/** A term is pre-warmed when at least this share of the tenant's notes hold it (cheaper ones cost ~5 ms cold). */
export const PREWARM_SHARE = 0.08;
export const PREWARM_MAX_TERMS = 64;
/** Stale terms are refreshed after the tenant has not written for this long. */
export const REFRESH_QUIET_MS = 1500;
const TICK_MS = 500;

/** A pause between terms long enough for pending requests to be read and answered. */
const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

export class KeywordWarmer {
  private timer?: NodeJS.Timeout;
  private busy = false;
  private stopped = false;

  constructor(
    private readonly repo: SearchRepo,
    private readonly tenantIds: () => string[],
    private readonly log: Logger,
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

  /** Pre-warms every tenant, then refreshes stale terms on a timer until stop() (after which it never starts again: the database is closing). */
  start(): void {
    if (this.stopped || this.timer) return;
    void this.run(async () => {
      await turn(); // never inside the caller's start-up work
      const t0 = Date.now();
      let terms = 0;
      for (const id of this.tenantIds()) terms += await this.prewarm(id);
      this.log.info(`keyword index warm: ${terms} common term(s) in ${Date.now() - t0} ms (${Math.round(this.repo.impacts.heldBytes() / 1e6)} MB)`);
    });
    this.timer = setInterval(() => void this.run(() => this.refresh()), TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Scores again the kept terms of tenants that wrote and have since been quiet. */
  async refresh(): Promise<number> {
    let done = 0;
    for (const id of this.tenantIds()) {
      if (this.repo.keywords.quietFor(id) < REFRESH_QUIET_MS) continue;
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
