import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cutAtWord, loadCollection } from '../../bench/eval/collection.js';
import { mean, ndcgAt, recallAt } from '../../bench/eval/metrics.js';

describe('eval metrics', () => {
  const rel = new Set(['a', 'b']);
  it('nDCG@k is 1 for a perfect ranking and discounts later hits', () => {
    expect(ndcgAt(['a', 'b', 'x'], rel)).toBe(1);
    expect(ndcgAt(['x', 'a', 'b'], rel)).toBeCloseTo((1 / Math.log2(3) + 1 / Math.log2(4)) / (1 + 1 / Math.log2(3)));
    expect(ndcgAt(['x', 'y'], rel)).toBe(0);
    expect(ndcgAt(['x', 'a'], rel, 1)).toBe(0);
  });
  it('recall@k counts relevant documents in the top k', () => {
    expect(recallAt(['a', 'x', 'b'], rel, 2)).toBe(0.5);
    expect(recallAt([], rel)).toBe(0);
    expect(mean([])).toBe(0);
  });
});

describe('eval collections', () => {
  it('cuts long queries at a word boundary', () => {
    expect(cutAtWord('alpha beta gamma', 12)).toBe('alpha beta');
    expect(cutAtWord('short', 500)).toBe('short');
    expect(cutAtWord('x'.repeat(600), 500)).toHaveLength(500);
  });
  it('loads a BEIR folder and keeps only judged queries', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rz-coll-'));
    writeFileSync(join(dir, 'corpus.jsonl'), '{"_id": 1, "title": "T", "text": "body"}\n{"_id": "2", "text": "other"}\n');
    writeFileSync(join(dir, 'queries.jsonl'), '{"_id": "q1", "text": "find body"}\n{"_id": "q2", "text": "unjudged"}\n');
    writeFileSync(join(dir, 'qrels.tsv'), 'query-id\tcorpus-id\tscore\nq1\t1\t1\nq1\t2\t0\n');
    const c = loadCollection(dir);
    expect(c.docs).toEqual([{ id: '1', title: 'T', text: 'body' }, { id: '2', title: '', text: 'other' }]);
    expect(c.queries).toEqual([{ id: 'q1', text: 'find body' }]);
    expect([...c.relevant.get('q1')!]).toEqual(['1']);
  });
});
