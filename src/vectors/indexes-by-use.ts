// Indexes by use under one memory budget: which tenants' in-memory indexes a process holds.
// A tenant's indexes load on its first request — within the request when small, else in the
// background while its searches are answered exactly from storage — and the least recently
// used are evicted when those held outgrow the budget (never the tenant in use: a single
// tenant larger than the budget is held whole). VectorStore holds the indexes; this decides
// when they load and leave.
import { detached } from '../db/store/transactions.js';

/** Vectors read per slice of a tenant's background load (~15 ms at 512-d). */
const LOAD_SLICE = 1000;
/**
 * A cold tenant with at most this many vectors loads within its first request (~10 ms on
 * SQLite, ~30 ms on PostgreSQL); a larger one loads in the background while its searches are
 * answered exactly from storage.
 */
export const LOAD_IN_REQUEST_MAX = 5000;

export interface BudgetOptions {
  bytes: number;
  /** Default LOAD_IN_REQUEST_MAX. */
  loadInRequestMax?: number;
  onLoad?: (tenantId: string, ms: number) => void;
  onEvict?: (tenantId: string, bytes: number) => void;
  onError?: (tenantId: string, e: unknown) => void;
}

/** What the policy needs of the indexes it governs. */
export interface HeldIndexes {
  /** Complete in memory. */
  isHeld(tenantId: string): Promise<boolean>;
  /** Vectors stored for the tenant (its notes'). */
  stored(tenantId: string): Promise<number>;
  loadNow(tenantId: string): Promise<void>;
  /** Marks a background load (queries go to storage until it is complete). */
  willLoad(tenantId: string): Promise<void>;
  /** One slice of a background load; true once complete. */
  loadSlice(tenantId: string, limit: number): Promise<boolean>;
  drop(tenantId: string): void;
  /** Bytes held, by tenant. */
  bytes(): Map<string, number>;
}

export class IndexesByUse {
  private readonly used = new Map<string, number>();
  private tick = 0;
  /** Tenants loading in the background because a request needed them. */
  private readonly loading = new Set<string>();

  constructor(
    private readonly o: BudgetOptions,
    private readonly indexes: HeldIndexes,
  ) {}

  get budgetBytes(): number {
    return this.o.bytes;
  }

  /** A request uses the tenant's indexes: loads them if need be (see the head of the file). */
  async use(tenantId: string): Promise<void> {
    this.touch(tenantId);
    if (this.loading.has(tenantId) || await this.indexes.isHeld(tenantId)) return;
    const started = performance.now();
    if (await this.indexes.stored(tenantId) <= (this.o.loadInRequestMax ?? LOAD_IN_REQUEST_MAX)) {
      // Small enough to load within the request: its scores are the index's from the first
      // query on, the same for the same request.
      await this.indexes.loadNow(tenantId);
      this.loaded(tenantId, started);
      return;
    }
    this.loading.add(tenantId);
    await this.indexes.willLoad(tenantId);
    detached(() =>
      void (async () => {
        try {
          while (!(await this.indexes.loadSlice(tenantId, LOAD_SLICE))) await new Promise((r) => setImmediate(r));
          this.loaded(tenantId, started);
        } catch (e) {
          // Dropped half-loaded: the next request starts again (and is answered exactly meanwhile).
          this.indexes.drop(tenantId);
          this.o.onError?.(tenantId, e);
        } finally {
          this.loading.delete(tenantId);
        }
      })(),
    );
  }

  /** The tenant's indexes leave memory (they load again on its next request). */
  evict(tenantId: string): void {
    this.indexes.drop(tenantId);
    this.used.delete(tenantId);
  }

  /** Evicts the least recently used tenants until those held fit the budget (never `keep`). */
  enforce(keep: string): void {
    const held = this.indexes.bytes();
    let total = [...held.values()].reduce((a, b) => a + b, 0);
    if (total <= this.o.bytes) return;
    const order = [...held.keys()].sort((a, b) => (this.used.get(a) ?? 0) - (this.used.get(b) ?? 0));
    for (const t of order) {
      if (total <= this.o.bytes) break;
      if (t === keep) continue;
      this.evict(t);
      total -= held.get(t) ?? 0;
      this.o.onEvict?.(t, held.get(t) ?? 0);
    }
  }

  private loaded(tenantId: string, started: number): void {
    this.o.onLoad?.(tenantId, performance.now() - started);
    this.enforce(tenantId);
  }

  private touch(tenantId: string): void {
    this.used.set(tenantId, ++this.tick);
  }
}
