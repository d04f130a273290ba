import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readBookmarkFile } from '../../src/interop/bookmarks/read-bookmarks.js';
import { UnrecognizedBookmarkFile } from '../../src/interop/bookmarks/types.js';

const fixture = (name: string) => new Uint8Array(readFileSync(`test/fixtures/interop/${name}`));

describe('bookmark files, recognised from their content', () => {
  it('reads Netscape bookmark HTML: folders → tags, TAGS, ADD_DATE, <DD> note', () => {
    const f = readBookmarkFile(fixture('netscape-bookmarks.html'));
    expect(f.format).toBe('netscape');
    expect(f.bookmarks).toEqual([
      { url: 'https://developer.mozilla.org/en-US/docs/Web/HTML', title: 'HTML: HyperText Markup Language | MDN', tags: [], note: null, created_at: '2023-11-14T22:16:40.000Z' },
      {
        url: 'https://www.nature.com/articles/d41586-023-00001-1?utm_source=twitter', title: 'Why AI needs a lab notebook',
        tags: ['Reading & Research', 'science', 'ai'], note: 'Argues for provenance in ML experiments.\nSecond line of the note.', created_at: '2023-11-14T22:21:40.000Z',
      },
      { url: 'https://example.org/empty-title', title: null, tags: ['Reading & Research'], note: null, created_at: '2023-11-14T22:25:00.000Z' },
      { url: 'https://news.ycombinator.com/item?id=1', title: 'Ask HN: What are you reading?', tags: ['news'], note: null, created_at: '2020-09-13T12:26:40.000Z' },
    ]);
    expect(f.problems.map((p) => p.detail)).toEqual([
      expect.stringContaining('javascript:alert(1)'), expect.stringContaining('place:sort=8'),
    ]);
  });

  it('reads a Pocket CSV export', () => {
    const f = readBookmarkFile(fixture('pocket-export.csv'));
    expect(f.format).toBe('pocket');
    expect(f.bookmarks).toEqual([
      { url: 'https://fortelabs.com/blog/how-to-take-smart-notes/', title: 'How to Take Smart Notes', tags: ['pkm', 'reading'], note: null, created_at: '2023-07-10T14:40:00.000Z' },
      { url: 'https://zettelkasten.de/introduction/', title: 'The "Zettelkasten" method, explained', tags: [], note: null, created_at: '2023-07-11T18:26:40.000Z' },
      { url: 'https://example.com/untitled', title: null, tags: ['misc'], note: null, created_at: '2023-07-12T22:13:20.000Z' },
    ]);
  });

  it('reads an Omnivore metadata JSON', () => {
    const f = readBookmarkFile(fixture('omnivore-metadata_0_to_2.json'));
    expect(f.format).toBe('omnivore');
    expect(f.bookmarks).toEqual([
      { url: 'https://karpathy.github.io/2015/05/21/rnn-effectiveness/', title: 'The Unreasonable Effectiveness of Recurrent Neural Networks', tags: ['ml', 'Newsletter'], note: null, created_at: '2024-10-30T12:39:28.023Z' },
      { url: 'https://example.net/tools', title: 'A note on tools', tags: [], note: null, created_at: '2024-11-01T09:15:00.000Z' },
    ]);
  });

  it('reads a Karakeep export: lists → tags, note kept, text items reported', () => {
    const f = readBookmarkFile(fixture('karakeep-export.json'));
    expect(f.format).toBe('karakeep');
    expect(f.bookmarks).toEqual([
      { url: 'https://www.sqlite.org/fts5.html', title: 'SQLite FTS5 Extension', tags: ['Databases', 'sqlite', 'search'], note: 'Check the bm25() weights section.', created_at: '2024-06-10T06:13:20.000Z' },
      { url: 'https://www.inkandswitch.com/local-first/', title: 'Local-first software', tags: ['Databases/Essays', 'crdt'], note: null, created_at: '2024-06-12T13:46:40.000Z' },
    ]);
    expect(f.problems).toEqual([{ path: 'bookmark 2', kind: 'ignored_value', detail: expect.stringContaining('no URL') }]);
  });

  it('reads a Linkwarden export: collections → tags (not "Unorganized")', () => {
    const f = readBookmarkFile(fixture('linkwarden-export.json'));
    expect(f.format).toBe('linkwarden');
    expect(f.bookmarks).toEqual([
      { url: 'https://hono.dev/', title: 'Hono - Web framework built on Web Standards', tags: ['web'], note: 'Small, fast, multi-runtime.', created_at: '2024-02-02T10:00:00.000Z' },
      { url: 'https://www.gwern.net/Spaced-repetition', title: null, tags: ['Reading List'], note: null, created_at: '2024-03-03T12:30:00.000Z' },
    ]);
  });

  it('merges repeats of the same page (normal form): tags united, earliest date kept', () => {
    const csv = 'title,url,time_added,tags,status\nA,https://x.org/a?utm_source=1,200,one,unread\nA again,https://X.org/a/,100,two,unread\n';
    const f = readBookmarkFile(csv);
    expect(f.bookmarks).toEqual([{ url: 'https://x.org/a?utm_source=1', title: 'A', tags: ['one', 'two'], note: null, created_at: '1970-01-01T00:01:40.000Z' }]);
  });

  it('rejects anything else with an error naming the formats understood', () => {
    for (const bad of ['just some text', '{"items": []}', '[1,2,3]', '<html><body><p>hi</p></body></html>', 'a,b,c\n1,2,3', '{not json', new Uint8Array([0xff, 0xfe, 0x00])]) {
      let err: unknown;
      try { readBookmarkFile(bad); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(UnrecognizedBookmarkFile);
      expect((err as Error).message).toMatch(/Netscape bookmark HTML.*Pocket CSV.*Omnivore.*Karakeep.*Linkwarden/);
    }
  });
});
