// Nearest nodes and similarities computed exactly from storage (the stored floats' dot
// product): what VectorStore answers with while a tenant's in-memory indexes load in the
// background. A node's score is the best of its own vector's and its passages', as in memory.
import type { NodeFilter, NodesRepo } from '../repos/nodes.repo.js';
import type { PassagesRepo } from '../repos/passages.repo.js';
import type { VectorsApi } from '../repos/vectors.repo.js';
import { dot } from './math.js';

/** vec0's largest k. */
const VEC0_MAX_K = 4096;

export interface ExactScore {
  seq: number;
  score: number;
  /** The passage whose vector gave the score. */
  passage?: number;
}

export const byScore = (a: { score: number; seq: number }, b: { score: number; seq: number }) => b.score - a.score || a.seq - b.seq;

export class ExactScan {
  constructor(private readonly d: { repo: VectorsApi; nodes: NodesRepo; passages?: PassagesRepo }) {}

  /**
   * The k nearest live nodes passing the filters, by brute force: candidates are the nearest
   * by their own vectors, each then scored with its passages too.
   */
  async nearest(tenantId: string, vec: Float32Array, k: number, filter: NodeFilter, withPassages: boolean): Promise<Array<ExactScore & { id: string }>> {
    let want = k;
    for (;;) {
      const hits = await this.d.repo.knnExact(tenantId, vec, want);
      const live = await this.d.nodes.passing(tenantId, hits.map((h) => h.seq), filter);
      const kept = hits.filter((h) => live.get(h.seq) === h.id);
      if (kept.length >= k || hits.length < want || want >= VEC0_MAX_K) {
        const ids = new Map(kept.map((h) => [h.seq, h.id]));
        return (await this.scores(tenantId, vec, [...ids.keys()], withPassages)).map((h) => ({ ...h, id: ids.get(h.seq)! })).sort(byScore).slice(0, k);
      }
      want = Math.min(want * 4, VEC0_MAX_K);
    }
  }

  /** Exact similarities of these nodes: each one's own vector's and its passages', the best kept. */
  async scores(tenantId: string, vec: Float32Array, seqs: number[], withPassages: boolean): Promise<ExactScore[]> {
    const best = new Map<number, ExactScore>();
    for (const r of await this.d.repo.bySeqs(tenantId, seqs)) best.set(r.seq, { seq: r.seq, score: dot(vec, floatsOf(r.embedding)) });
    for (const p of (withPassages ? await this.d.passages?.ofSeqs(tenantId, seqs) : undefined) ?? []) {
      const score = dot(vec, floatsOf(p.embedding));
      const cur = best.get(p.owner);
      if (cur && score > cur.score) best.set(p.owner, { seq: p.owner, score, passage: p.seq });
    }
    return [...best.values()];
  }
}

/** A stored vector's floats (copied when its bytes are not 4-aligned, as PostgreSQL's bytea may be). */
function floatsOf(b: Buffer | Uint8Array): Float32Array {
  return b.byteOffset % 4 === 0 ? new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4) : new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}
