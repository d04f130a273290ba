// The PARA corpus shape and the score both PARA evaluations use (the cold and warm runs in
// para.ts, the scenarios in para-scenarios.ts), in a file of its own so neither imports the other.
import type { ParaCategory } from '../../src/schemas/para.js';

export interface ParaCorpus {
  items: { key: string; category: ParaCategory; label: string; description: string }[];
  nodes: { item: string | null; title: string; content: string }[];
}

export interface ParaScore {
  precision: number;
  coverage: number;
  assigned: number;
  correct: number;
  total: number;
  /** Notes that belong to no item but were filed anyway (each also lowers precision). */
  none_assigned: number;
  none_total: number;
}

/** Precision and coverage of automatic filings against the expected item of each node (null = belongs nowhere). */
export function score(expected: Map<string, string | null>, got: Map<string, string[]>): ParaScore {
  let assigned = 0;
  let correct = 0;
  let total = 0;
  let noneAssigned = 0;
  let noneTotal = 0;
  for (const [nodeId, want] of expected) {
    const filed = got.get(nodeId) ?? [];
    if (want === null) noneTotal++;
    else total++;
    if (filed.length === 0) continue;
    assigned++;
    if (want === null) noneAssigned++;
    else if (filed.length === 1 && filed[0] === want) correct++;
  }
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    precision: assigned ? round(correct / assigned) : 1,
    coverage: total ? round(correct / total) : 0,
    assigned,
    correct,
    total,
    none_assigned: noneAssigned,
    none_total: noneTotal,
  };
}
