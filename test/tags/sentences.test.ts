// The summariser's sentence splitter keeps names, abbreviations, versions and URLs whole.
import { describe, expect, it } from 'vitest';
import { sentences, splitSentences } from '../../src/ingest/text-stats.js';

describe('sentences', () => {
  it('does not split inside Node.js, e.g., version numbers or URLs', () => {
    const text = 'Rhizome runs on Node.js 20 and uses e.g. SQLite with FTS5. See https://example.com/a.b?c=d! for v1.2.3 notes. Dr. Smith agreed! Is it done? Yes. Pi is 3.14 here.';
    expect(splitSentences(text)).toEqual([
      'Rhizome runs on Node.js 20 and uses e.g. SQLite with FTS5.',
      'See https://example.com/a.b?c=d! for v1.2.3 notes.',
      'Dr. Smith agreed!',
      'Is it done?',
      'Yes.',
      'Pi is 3.14 here.',
    ]);
  });

  it('a URL at the end of a sentence keeps its full stop outside the URL', () => {
    expect(splitSentences('Read https://nodejs.org/en/docs. Then build it.')).toEqual(['Read https://nodejs.org/en/docs.', 'Then build it.']);
  });

  it('still splits paragraphs, lists and CJK full stops', () => {
    expect(sentences('# Title\n\nFirst one. Second one.\n\n- item one\n- item two\n\n日本語です。次の文。')).toEqual([
      'Title', 'First one.', 'Second one.', 'item one', 'item two', '日本語です。', '次の文。',
    ]);
  });
});
