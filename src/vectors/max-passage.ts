// A node's similarity is the best of its vectors (MaxP): its own vector's and each of its
// passages', the passage named when it wins (an equal score goes to the earlier passage).
// Whichever index found a node, it is scored from all its vectors alike. Pure.
import type { IndexHit } from './semantic-index.js';
import type { ScoredNode } from './vector-shapes.js';

/** Each node's best score, from its own vector's scores and its passages' (`owner`: the node's seq). */
export function bestOfVectors(own: IndexHit[], passages: IndexHit[]): ScoredNode[] {
  const best = new Map<number, ScoredNode>();
  for (const h of own) best.set(h.seq, { seq: h.seq, id: h.id, score: h.score });
  for (const p of passages) {
    const cur = best.get(p.owner!);
    if (!cur || p.score > cur.score || (p.score === cur.score && cur.passage !== undefined && p.seq < cur.passage)) best.set(p.owner!, { seq: p.owner!, id: p.id, score: p.score, passage: p.seq });
  }
  return [...best.values()];
}
