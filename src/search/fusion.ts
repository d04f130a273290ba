// Fuses the keyword and semantic ranked lists into one.
export interface RankedHit {
  seq: number;
  score: number; // higher is better on each side
}

export interface FusedHit {
  seq: number;
  score: number;
  keyword: boolean;
  semantic: boolean;
}

/** Reciprocal rank fusion (Cormack et al., 2009). */
export function fuseReciprocalRank(keyword: RankedHit[], semantic: RankedHit[], k = 60): FusedHit[] {
  const out = new Map<number, FusedHit>();
  const add = (list: RankedHit[], side: 'keyword' | 'semantic') =>
    list.forEach((h, rank) => {
      const f = out.get(h.seq) ?? { seq: h.seq, score: 0, keyword: false, semantic: false };
      f.score += 1 / (k + rank + 1);
      f[side] = true;
      out.set(h.seq, f);
    });
  add(keyword, 'keyword');
  add(semantic, 'semantic');
  return [...out.values()].sort((a, b) => b.score - a.score || a.seq - b.seq);
}
