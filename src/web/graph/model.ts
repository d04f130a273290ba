// The explorer's data model: GET /graph as a graphology graph, with a colour per PARA item,
// tag or status, a size by degree, and the filters as one predicate.
import Graph from 'graphology';

export interface GNode {
  id: string;
  title: string;
  status: 'raw' | 'validated' | 'dismissed';
  para_item_ids: string[];
  tags: string[];
  degree: number;
}
export interface GLink {
  source: string;
  target: string;
  type: string;
}
export interface GraphData {
  nodes: GNode[];
  links: GLink[];
  total_nodes: number;
  total_links: number;
  truncated: boolean;
}

export type ColourBy = 'para' | 'tag' | 'status';
export interface Filters {
  status: '' | GNode['status'];
  /** '' any, '-' none, or an item id. */
  para: string;
  tag: string;
}
export interface Category {
  key: string;
  label: string;
  colour: string;
  count: number;
}

/** Ten colours distinct in both themes (Tableau 10, slightly deepened for light backgrounds). */
const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#59a14f', '#b07aa1', '#76b7b2', '#edc948', '#ff9da7', '#9c755f', '#86bcb6'];
export const OTHER = '#9aa3a0';
const STATUS_COLOURS: Record<GNode['status'], string> = { raw: '#f28e2b', validated: '#59a14f', dismissed: '#9aa3a0' };

/** A deterministic spread in a disk: FA2 then only has to refine, and two loads look alike. */
function seededRandom(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

export function nodeSize(degree: number): number {
  return Math.min(3 + Math.sqrt(degree) * 1.8, 18);
}

/**
 * The starting positions: nodes grouped by their first PARA item (else first tag), each group
 * a disc of its own on a golden-angle spiral, so the picture is readable from the first frame
 * and ForceAtlas2 only has to refine it.
 */
export function buildGraph(data: GraphData): Graph {
  const g = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
  const rnd = seededRandom(42);
  const groupOf = (n: GNode) => n.para_item_ids[0] ?? (n.tags[0] ? '#' + n.tags[0] : '~');
  const sizes = new Map<string, number>();
  for (const n of data.nodes) sizes.set(groupOf(n), (sizes.get(groupOf(n)) ?? 0) + 1);
  const centres = new Map<string, { x: number; y: number; r: number }>();
  let i = 0;
  for (const [key, count] of [...sizes].sort((a, b) => b[1] - a[1])) {
    const a = i * 2.39996, d = Math.sqrt(i) * Math.sqrt(data.nodes.length / Math.max(1, sizes.size)) * 24;
    centres.set(key, { x: Math.cos(a) * d, y: Math.sin(a) * d, r: Math.sqrt(count) * 9 });
    i++;
  }
  for (const n of data.nodes) {
    const c = centres.get(groupOf(n))!;
    const a = rnd() * Math.PI * 2, d = Math.sqrt(rnd()) * c.r;
    g.addNode(n.id, { label: n.title, x: c.x + Math.cos(a) * d, y: c.y + Math.sin(a) * d, size: nodeSize(n.degree), color: OTHER, node: n });
  }
  for (const l of data.links) {
    if (l.source !== l.target && g.hasNode(l.source) && g.hasNode(l.target)) g.mergeEdge(l.source, l.target, { type: 'line', kind: l.type });
  }
  return g;
}

/** The categories to colour by (the nine largest, then "other"), and each node's key. */
export function categorise(nodes: GNode[], by: ColourBy, paraLabel: (id: string) => string): { categories: Category[]; keyOf: (n: GNode) => string } {
  if (by === 'status') {
    const counts = { raw: 0, validated: 0, dismissed: 0 };
    for (const n of nodes) counts[n.status]++;
    return {
      categories: (Object.keys(counts) as GNode['status'][]).map((k) => ({ key: k, label: k, colour: STATUS_COLOURS[k], count: counts[k] })),
      keyOf: (n) => n.status,
    };
  }
  const pick = (n: GNode) => (by === 'para' ? n.para_item_ids : n.tags);
  const counts = new Map<string, number>();
  for (const n of nodes) for (const k of pick(n)) counts.set(k, (counts.get(k) ?? 0) + 1);
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, PALETTE.length - 1);
  const rank = new Map(top.map(([k], i) => [k, i]));
  const keyOf = (n: GNode) => {
    let best = -1;
    for (const k of pick(n)) {
      const i = rank.get(k);
      if (i !== undefined && (best < 0 || i < best)) best = i;
    }
    return best < 0 ? (pick(n).length ? '~other' : '~none') : top[best][0];
  };
  const categories: Category[] = top.map(([k, c], i) => ({ key: k, label: by === 'para' ? paraLabel(k) : '#' + k, colour: PALETTE[i], count: c }));
  let other = 0, none = 0;
  for (const n of nodes) {
    const k = keyOf(n);
    if (k === '~other') other++;
    else if (k === '~none') none++;
  }
  if (other) categories.push({ key: '~other', label: 'other', colour: PALETTE[PALETTE.length - 1], count: other });
  if (none) categories.push({ key: '~none', label: by === 'para' ? 'no PARA item' : 'no tag', colour: OTHER, count: none });
  return { categories, keyOf };
}

export function passes(n: GNode, f: Filters): boolean {
  if (f.status && n.status !== f.status) return false;
  if (f.para === '-' ? n.para_item_ids.length > 0 : f.para && !n.para_item_ids.includes(f.para)) return false;
  if (f.tag && !n.tags.includes(f.tag)) return false;
  return true;
}

/** Tags by how many nodes carry them. */
export function tagCounts(nodes: GNode[]): Array<[string, number]> {
  const m = new Map<string, number>();
  for (const n of nodes) for (const t of n.tags) m.set(t, (m.get(t) ?? 0) + 1);
  return [...m.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** Title matches for search-to-focus: prefix matches first, then substring, then by degree. */
export function findNodes(nodes: GNode[], q: string, limit = 8): GNode[] {
  const s = q.trim().toLowerCase();
  if (!s) return [];
  const scored: Array<[number, GNode]> = [];
  for (const n of nodes) {
    const t = n.title.toLowerCase();
    const i = t.indexOf(s);
    if (i >= 0) scored.push([(i === 0 ? 0 : 1) * 1e6 - n.degree, n]);
  }
  return scored.sort((a, b) => a[0] - b[0]).slice(0, limit).map(([, n]) => n);
}
