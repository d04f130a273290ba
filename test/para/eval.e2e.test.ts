// The quality bar of automatic classification, measured with the real model on the
// corpus in test/fixtures/para-corpus.json (the same function `npm run eval` reports).
import { describe, expect, it } from 'vitest';
import { evaluateParaClassification, loadParaCorpus } from '../../bench/eval/para.js';
import { useRealModel } from '../helpers/real-model.js';

const real = useRealModel({ app: false });

describe('PARA classification quality (real model)', () => {
  it('the corpus is big enough to mean something', () => {
    const c = loadParaCorpus();
    const per = new Map<string | null, number>();
    for (const n of c.nodes) per.set(n.item, (per.get(n.item) ?? 0) + 1);
    expect(c.items.length).toBeGreaterThanOrEqual(4);
    expect(c.nodes.filter((n) => n.item !== null).length).toBeGreaterThanOrEqual(60);
    expect(per.get(null)).toBeGreaterThanOrEqual(10);
    for (const it of c.items) expect(per.get(it.key), it.key).toBeGreaterThanOrEqual(10);
  });

  it('files notes with precision >= 0.9, cold and warm, while covering most of them', async () => {
    const r = await evaluateParaClassification({ embedder: real.embedder });
    console.log(`PARA classification (${r.model}, threshold ${r.settings.threshold}, margin ${r.settings.margin}):\n` + JSON.stringify(r, null, 2));
    expect(r.precision).toBeGreaterThanOrEqual(0.9);
    expect(r.warm.precision).toBeGreaterThanOrEqual(0.9);
    expect(r.coverage).toBeGreaterThanOrEqual(0.7);
    expect(r.warm.coverage).toBeGreaterThanOrEqual(0.7);
    expect(r.total).toBe(65);
    expect(r.warm.total).toBe(55);
    // The three situations of the issue: one item, items arriving one at a time, 20% belonging nowhere.
    for (const x of r.scenarios) expect(x.precision, x.scenario).toBeGreaterThanOrEqual(0.9);
  }, 600_000);
});
