import { describe, expect, it } from 'vitest';
import { mentionedDates, mentionInRange, parseQueryDates } from '../../src/search/query-dates.js';

const now = new Date('2026-11-26T10:00:00Z');
const range = (q: string) => parseQueryDates(q, now);

describe('dates in a question', () => {
  it('reads months, years, decades, relative and open periods, and takes them out of the text', () => {
    expect(range("What was going on in Maya's life in March 2023?")).toEqual({ text: "What was going on in Maya's life?", range: { after: '2023-03-01T00:00:00.000Z', before: '2023-04-01T00:00:00.000Z', said: 'March 2023' } });
    expect(range('what did I do last May').range).toMatchObject({ after: '2026-05-01T00:00:00.000Z', before: '2026-06-01T00:00:00.000Z' });
    expect(range('what did Sam say in June?').range).toMatchObject({ after: '2026-06-01T00:00:00.000Z' }); // the latest June, not next year's
    expect(range('notes from 2022')).toEqual({ text: 'notes', range: { after: '2022-01-01T00:00:00.000Z', before: '2023-01-01T00:00:00.000Z', said: '2022' } });
    expect(range('music of the 1990s').range).toMatchObject({ after: '1990-01-01T00:00:00.000Z', before: '2000-01-01T00:00:00.000Z' });
    expect(range('what happened before 2020').range).toEqual({ before: '2020-01-01T00:00:00.000Z', said: '2020' });
    expect(range('since June 2023').range).toEqual({ after: '2023-06-01T00:00:00.000Z', said: 'June 2023' });
    expect(range('what happened between January and March 2024').range).toMatchObject({ after: '2024-01-01T00:00:00.000Z', before: '2024-04-01T00:00:00.000Z' });
    expect(range('yesterday').range).toMatchObject({ after: '2026-11-25T00:00:00.000Z', before: '2026-11-26T00:00:00.000Z' });
  });

  it('reads a span back to now as the whole span, whatever its size', () => {
    expect(range('what did we decide over the past two years?')).toEqual({ text: 'what did we decide?', range: { after: '2024-11-26T10:00:00.000Z', before: now.toISOString(), said: 'past two years' } });
    expect(range('use of databases has increased over the past several years').range).toMatchObject({ after: '2019-11-26T10:00:00.000Z', before: now.toISOString() });
    expect(range('notes from the last few weeks').range).toMatchObject({ after: '2026-11-05T10:00:00.000Z', before: now.toISOString() });
    expect(range('in the last 3 months').range).toMatchObject({ after: '2026-08-26T10:00:00.000Z', before: now.toISOString() });
    expect(range('in the past 10 days').range).toMatchObject({ after: '2026-11-16T10:00:00.000Z', before: now.toISOString() });
    expect(range('last year').range).toMatchObject({ after: '2025-01-01T00:00:00.000Z', before: '2026-01-01T00:00:00.000Z' }); // a named period, not a span
  });

  it('reads no period where there is none', () => {
    for (const q of ['When did Maya move to Montreal?', 'may I ask about dogs', 'JPEG 2000 image library', 'basic utilities from 4.4BSD-Lite', 'Which book kept him up at night?', 'Where does Jonah live now?', "information in today's libraries", 'version 2048 of the game']) {
      expect(range(q), q).toEqual({ text: q, range: null });
    }
  });
});

describe('dates a text mentions', () => {
  it('keeps each as precise as it was said, relative to the note date', () => {
    const ref = new Date('2023-05-03T10:00:00Z');
    expect(mentionedDates('We met on 12 May 2023 and again yesterday.', ref)).toEqual(['2023-05-12', '2023-05-02']);
    expect(mentionedDates('The conference is in June 2024 in Lisbon.', ref)).toEqual(['2024-06']);
    expect(mentionedDates('Back in 2019 I lived in Denver.', ref)).toEqual(['2019']);
    expect(mentionedDates('It was a Friday at 5pm. Nothing else.', ref)).toEqual([]);
  });

  it('says whether a mention overlaps a period', () => {
    const june = { after: '2024-06-01T00:00:00.000Z', before: '2024-07-01T00:00:00.000Z' };
    expect(mentionInRange('2024-06', june)).toBe(true);
    expect(mentionInRange('2024-06-30', june)).toBe(true);
    expect(mentionInRange('2024', june)).toBe(true);
    expect(mentionInRange('2024-07-01', june)).toBe(false);
    expect(mentionInRange('2023-05-12', { after: '2023-06-01T00:00:00.000Z' })).toBe(false);
  });
});
