import { describe, expect, it } from 'vitest';
import { MENTION_NUDGE, periodFirst, periodPools } from '../../src/search/period-rank.js';
import type { DateRange } from '../../src/search/query-dates.js';

const may: DateRange = { after: '2025-05-01T00:00:00.000Z', before: '2025-06-01T00:00:00.000Z', said: 'last May' };
const dated = (at: string, mentioned: string[] = []) => ({ occurred_at: at, created_at: '2026-01-01T00:00:00.000Z', mentioned_dates: JSON.stringify(mentioned) });

describe('periodPools', () => {
  it('keeps the overall pool, then the period\'s own matches it lacks, each cut to the pool', () => {
    const overall = [1, 2, 3, 4].map((seq) => ({ seq }));
    const within = [3, 9, 8, 7].map((seq) => ({ seq }));
    expect(periodPools(overall, within, 2).map((h) => h.seq)).toEqual([1, 2, 3, 9]);
    expect(periodPools(overall, within).map((h) => h.seq)).toEqual([1, 2, 3, 4, 9, 8, 7]);
    expect(periodPools([], within, 3).map((h) => h.seq)).toEqual([3, 9, 8]);
  });
});

describe('periodFirst', () => {
  it('puts the period\'s nodes first, best first; a mention only breaks ties; level scores keep the order given', () => {
    const hits = [
      { seq: 1, score: 0.9 },
      { seq: 2, score: 0.3 },
      { seq: 3, score: 0.5 },
      { seq: 4, score: 0.5 },
      { seq: 5, score: 0.5 },
    ];
    const dates = new Map([
      [1, dated('2024-03-01T00:00:00.000Z')],
      [2, dated('2025-05-10T00:00:00.000Z')],
      [3, dated('2024-01-01T00:00:00.000Z')],
      [4, dated('2024-01-01T00:00:00.000Z', ['2025-05-20'])],
      [5, dated('2024-01-01T00:00:00.000Z')],
    ]);
    const got = periodFirst(hits, dates, may);
    expect(got.map((h) => h.seq)).toEqual([2, 1, 4, 3, 5]);
    expect(got[2].score - got[3].score).toBeCloseTo(MENTION_NUDGE, 9);
  });
});
