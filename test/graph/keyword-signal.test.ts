// keywordSignal's own choices, read against a recording stand-in for the keyword module:
// dismissed nodes are left out where the candidates are drawn (not only after), the rarest
// terms within the budget are ranked, and a text whose rarest term is very common falls
// back to the newest nodes holding it. (The module's reads themselves: keyword-route.test.ts.)
import { describe, expect, it } from 'vitest';
import type { ContextRepo } from '../../src/repos/context.repo.js';
import type { NodeFilter } from '../../src/repos/nodes.repo.js';
import { type KeywordReads, keywordSignal } from '../../src/services/graph/graph-signals.js';

function reads(df: Record<string, number>) {
  const calls: Array<{ kind: string; phrases: string[]; f: NodeFilter }> = [];
  const keywords: KeywordReads = {
    termCounts: async (_t, phrases) => phrases.map((p) => df[p.slice(1, -1)] ?? 0),
    keywordTop: async (_t, phrases, f) => (calls.push({ kind: 'top', phrases, f }), { hits: [{ seq: 1 }] }),
    newestMatches: async (_t, phrases, f) => (calls.push({ kind: 'newest', phrases, f }), [2]),
  };
  const repo = { texts: async (_t: string, seqs: number[]) => seqs.map((seq) => ({ id: `n${seq}`, seq, text: 'quokka wombat common' })) } as unknown as ContextRepo;
  return { keywords, repo, calls };
}

describe('keywordSignal', () => {
  it('ranks the rarest terms within the budget, dismissed nodes left out where candidates are drawn', async () => {
    const { keywords, repo, calls } = reads({ quokka: 3, wombat: 1000, common: 250, absent: 0 });
    const got = await keywordSignal(keywords, repo, 't', ['common', 'quokka', 'absent', 'wombat'], 40);
    // Capped at 300: wombat counts as 300 and 3 + 250 + 300 > 1500 does not hold, so all three are ranked.
    expect(calls).toEqual([{ kind: 'top', phrases: ['"quokka"', '"common"', '"wombat"'], f: { status_not: 'dismissed' } }]);
    expect([...got.keys()]).toEqual(['n1']);
  });

  it('falls back to the newest nodes holding the rarest term when even it is very common', async () => {
    const { keywords, repo, calls } = reads({ common: 5000, wombat: 400 });
    // Both count as 300 (the cap): the first of the text wins the tie.
    const got = await keywordSignal(keywords, repo, 't', ['wombat', 'common'], 40);
    expect(calls).toEqual([{ kind: 'newest', phrases: ['"wombat"'], f: { status_not: 'dismissed' } }]);
    expect([...got.keys()]).toEqual(['n2']);
  });
});
