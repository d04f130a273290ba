// One memory budget for the tenants' in-memory indexes of a process: the order in which
// tenants were last used, and which to evict, least recently used first, when the indexes
// held outgrow the budget. The tenant in use is never evicted (a single tenant larger than
// the budget is held whole: its searches need it). Pure bookkeeping; VectorStore loads and
// drops the indexes.

export class IndexBudget {
  private readonly used = new Map<string, number>();
  private tick = 0;

  constructor(readonly bytes: number) {}

  /** The tenant was just used. */
  touch(tenantId: string): void {
    this.used.delete(tenantId);
    this.used.set(tenantId, ++this.tick); // a Map keeps insertion order: least recently used first
  }

  forget(tenantId: string): void {
    this.used.delete(tenantId);
  }

  /**
   * The tenants to evict so that what is held fits the budget, least recently used first,
   * never `keep`. `held` gives each held tenant's bytes.
   */
  victims(held: Map<string, number>, keep: string): string[] {
    let total = [...held.values()].reduce((a, b) => a + b, 0);
    if (total <= this.bytes) return [];
    const order = [...held.keys()].sort((a, b) => (this.used.get(a) ?? 0) - (this.used.get(b) ?? 0));
    const out: string[] = [];
    for (const t of order) {
      if (total <= this.bytes) break;
      if (t === keep) continue;
      out.push(t);
      total -= held.get(t) ?? 0;
    }
    return out;
  }
}
