// The near-empty rule: placeholders and log lines are never filed or drawn in by meaning.
import { describe, expect, it } from 'vitest';
import { contentWordCount, isNearEmpty, NEAR_EMPTY_WORDS } from '../../src/search/substance.js';

describe('near-empty nodes', () => {
  it('counts distinct content words, without numbers, file names, links or stopwords', () => {
    expect(contentWordCount('![](IMG_2041.png)')).toBe(0);
    expect(contentWordCount('Screenshot 2024-05-01 at 10.32.11.png')).toBe(1);
    expect(contentWordCount('the the and of 12345')).toBe(0);
    expect(contentWordCount('Sourdough bread: sourdough starter, bread loaves')).toBe(4);
  });
  it(`calls placeholders, one-line logs and texts under ${NEAR_EMPTY_WORDS} content words near-empty`, () => {
    expect(isNearEmpty({ title: 'IMG_2041.png', body_markdown: '![image](IMG_2041.png)' })).toBe(true);
    expect(isNearEmpty({ title: 'log', body_markdown: '2024-05-01 12:00:03 ERROR Connection refused while contacting upstream database host' })).toBe(true);
    expect(isNearEmpty({ title: 'INFO server started on port 8080 pid 4121' })).toBe(true);
    expect(isNearEmpty({ title: 'Buy milk', body_markdown: 'and eggs' })).toBe(true);
    expect(isNearEmpty({ title: 'Weekly review', body_markdown: 'Go through the inbox, the calendar and every open project each Friday.' })).toBe(false);
    expect(isNearEmpty({ title: 'Server crash', body_markdown: 'The API server crashed twice overnight.\n2024-05-01 12:00:03 ERROR out of memory' })).toBe(false);
  });
});
