// Ranking lab: FTS5 (porter unicode61, as nodes_fts) + cached USE-lite vectors, many
// keyword / fusion variants scored by nDCG@10 and recall@100 per collection.
// Run: node bench/experiments/embed-cache.mjs cisi debian pydoc && node bench/experiments/rank-lab.mjs
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { loadCollection, docText, cutQuery } from './collections.mjs';
import { lightStem } from './stem.mjs';

export const STOP = new Set(`a about above after again against all am an and any are aren't as at be because been before being below between both but by can cannot could did do does doing don't down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself let me more most my myself no nor not of off on once only or other ought our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they this those through to too under until up very was we were what when where which while who whom why with would you your yours yourself yourselves also may might must shall will just yet via per etc eg ie s t`.split(/\s+/));

export const words = (s) => (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
const quote = (t) => `"${t.replace(/"/g, '""')}"`;

export function setup(name) {
  const c = loadCollection(name);
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE f USING fts5(title, summary, body, tags, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2')`);
  const ins = db.prepare('INSERT INTO f(rowid, title, summary, body, tags) VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => c.docs.forEach((d, i) => ins.run(i + 1, d.title, '', d.text, '')))();
  const buf = readFileSync(`/tmp/rz-eval/${name}.vec.bin`);
  const all = new Float32Array(buf.buffer, buf.byteOffset, buf.length / 4);
  const D = c.docs.length;
  const dv = (i) => all.subarray(i * 512, (i + 1) * 512);
  const qv = new Map(c.queries.map((q, j) => [q._id, all.subarray((D + j) * 512, (D + j + 1) * 512)]));
  const docWords = c.docs.map((d) => words(docText(d)));
  const queries = c.queries.filter((q) => c.qrels.has(q._id)).map((q) => ({ ...q, text: cutQuery(q.text) }));
  return { c, db, D, dv, qv, docWords, queries };
}

export function ftsSearch(env, terms, weights = [1, 1, 1, 1], limit = 1000) {
  if (!terms.length) return [];
  const q = terms.map(quote).join(' OR ');
  const sql = `SELECT rowid, -bm25(f, ${weights.join(',')}) AS s FROM f WHERE f MATCH ? ORDER BY bm25(f, ${weights.join(',')}) LIMIT ${limit}`;
  return env.db.prepare(sql).all(q).map((r) => ({ i: r.rowid - 1, s: r.s }));
}

export function knn(env, v, k = 1000) {
  const out = [];
  for (let i = 0; i < env.D; i++) {
    const d = env.dv(i);
    let s = 0;
    for (let j = 0; j < 512; j++) s += d[j] * v[j];
    out.push({ i, s });
  }
  return out.sort((a, b) => b.s - a.s).slice(0, k);
}

export function ndcg(ranked, rel, k = 10) {
  let dcg = 0;
  ranked.slice(0, k).forEach((d, r) => { if (rel.has(d)) dcg += 1 / Math.log2(r + 2); });
  let idcg = 0;
  for (let r = 0; r < Math.min(k, rel.size); r++) idcg += 1 / Math.log2(r + 2);
  return dcg / idcg;
}
export const recall = (ranked, rel, k = 100) => ranked.slice(0, k).filter((d) => rel.has(d)).length / rel.size;

export function evaluate(env, rankFn, subset = (j) => true) {
  let n = 0, nd = 0, rc = 0;
  env.queries.forEach((q, j) => {
    if (!subset(j)) return;
    const rel = new Set([...env.c.qrels.get(q._id)].map((id) => env.c.docs.findIndex((d) => d._id === id)));
    const ranked = rankFn(q, env);
    nd += ndcg(ranked, rel);
    rc += recall(ranked, rel);
    n++;
  });
  return { ndcg: nd / n, recall: rc / n, n };
}

/** RM3-style expansion terms from the top feedback docs of a first keyword pass. */
export function expansionTerms(env, first, origTerms, { fbDocs = 10, fbTerms = 10, minDocs = 2 } = {}) {
  const top = first.slice(0, fbDocs);
  if (top.length < minDocs) return [];
  const maxS = top[0].s;
  const origStems = new Set(origTerms.map(lightStem));
  const acc = new Map();
  for (const { i, s } of top) {
    const ws = env.docWords[i].filter((w) => !STOP.has(w) && w.length > 2 && !/^\d+$/.test(w));
    const tf = new Map();
    for (const w of ws) {
      const st = lightStem(w);
      const e = tf.get(st) ?? { n: 0, forms: new Map() };
      e.n++;
      e.forms.set(w, (e.forms.get(w) ?? 0) + 1);
      tf.set(st, e);
    }
    const dw = Math.exp(s - maxS) ; // softmax-ish doc weight relative to the best
    for (const [st, e] of tf) {
      if (origStems.has(st)) continue;
      const a = acc.get(st) ?? { w: 0, docs: 0, forms: new Map() };
      a.w += (e.n / ws.length) * dw;
      a.docs++;
      for (const [f, n] of e.forms) a.forms.set(f, (a.forms.get(f) ?? 0) + n);
      acc.set(st, a);
    }
  }
  const df = (w) => env.db.prepare('SELECT count(*) n FROM f WHERE f MATCH ?').get(quote(w)).n;
  const cands = [...acc.values()].filter((a) => a.docs >= minDocs).map((a) => {
    const form = [...a.forms].sort((x, y) => y[1] - x[1])[0][0];
    return { form, w: a.w * Math.log((env.D + 1) / (df(form) + 0.5)) };
  });
  return cands.sort((a, b) => b.w - a.w).slice(0, fbTerms);
}
