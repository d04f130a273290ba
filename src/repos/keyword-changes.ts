// Which of a tenant's nodes changed in its FTS5 table, in order, while the keyword module
// keeps postings read from that table (through keyword-source.sqlite.ts): an append-only
// list of seqs per tenant and database, recorded by the keyword index on every insert and
// delete once a tenant is watched. Positions are absolute, so a reader keeps its place across trims.
interface ChangeLog {
  /** Absolute position of seqs[0]. */
  base: number;
  seqs: number[];
}

const logs = new WeakMap<object, Map<string, ChangeLog>>();

function logsOf(db: object): Map<string, ChangeLog> {
  let m = logs.get(db);
  if (!m) logs.set(db, (m = new Map()));
  return m;
}

/** Starts recording the tenant's changes (idempotent); returns the position a reader starts from. */
export function watchChanges(db: object, tenantId: string): number {
  const m = logsOf(db);
  let l = m.get(tenantId);
  if (!l) m.set(tenantId, (l = { base: 0, seqs: [] }));
  return l.base + l.seqs.length;
}

/** Stops recording the tenant's changes and forgets them (nothing kept needs them). */
export function unwatchChanges(db: object, tenantId: string): void {
  logs.get(db)?.delete(tenantId);
}

/** Records a change to the tenant's node `seq` (nothing when the tenant is not watched). */
export function recordChange(db: object, tenantId: string, seq: number): void {
  logs.get(db)?.get(tenantId)?.seqs.push(seq);
}

/** The seqs changed from absolute position `from` on, and the position after them. */
export function changesSince(db: object, tenantId: string, from: number): { seqs: number[]; next: number } {
  const l = logs.get(db)?.get(tenantId);
  if (!l) return { seqs: [], next: from };
  const start = Math.max(0, from - l.base);
  return { seqs: l.seqs.slice(start), next: l.base + l.seqs.length };
}

/** Forgets the changes before absolute position `upTo` (no reader needs them). */
export function trimChanges(db: object, tenantId: string, upTo: number): void {
  const l = logs.get(db)?.get(tenantId);
  if (!l || upTo <= l.base) return;
  const drop = Math.min(l.seqs.length, upTo - l.base);
  l.seqs.splice(0, drop);
  l.base += drop;
}
