import { describe, expect, it } from 'vitest';
import { readVault } from '../../src/interop/vault/read-vault.js';
import { vault } from './helpers.js';

const read = (files: Record<string, string | Uint8Array>, paraFromFolders = false) => readVault(vault(files), { source: 'markdown:test', paraFromFolders });
const links = (r: ReturnType<typeof read>, path: string) => r.notes.find((n) => n.path === path)!.links;

describe('Markdown vault reader: links', () => {
  it('resolves [[Note]], [[Note|label]], [[Note#Heading]], ![[Note]] and [text](other.md) as references', () => {
    const r = read({
      'src.md': [
        'See [[Plain]], [[Labelled|a label]], [[Anchored#Some Heading]], [[Block^abc123]],',
        '![[Embedded]], [rel](sub/Rel%20Note.md), [up](../outside.md) and [web](https://example.org/x.md).',
      ].join('\n'),
      'Plain.md': '', 'Labelled.md': '', 'Anchored.md': '', 'Block.md': '', 'Embedded.md': '', 'sub/Rel Note.md': '',
    });
    expect(links(r, 'src.md')).toEqual([
      { target: 'Plain.md', type: 'references' },
      { target: 'Labelled.md', type: 'references' },
      { target: 'Anchored.md', type: 'references' },
      { target: 'Block.md', type: 'references' },
      { target: 'Embedded.md', type: 'references' },
      { target: 'sub/Rel Note.md', type: 'references' },
    ]);
    expect(r.problems).toEqual([{ path: 'src.md', kind: 'unresolved_link', detail: expect.stringContaining('[up](../outside.md)') }]);
  });

  it('resolves by file name, title or alias, case-insensitively, and by vault path', () => {
    const r = read({
      'a.md': '[[deep note]] [[The Title]] [[an alias]] [[folder/deep note]] [[B.md]]',
      'folder/Deep Note.md': '',
      'x.md': '---\ntitle: The Title\n---\n',
      'y.md': '---\naliases: [An Alias]\n---\n',
      'b.md': '',
    });
    expect(links(r, 'a.md').map((l) => l.target)).toEqual(['folder/Deep Note.md', 'x.md', 'y.md', 'b.md']);
  });

  it('reports unresolved and ambiguous links and keeps them as text', () => {
    const r = read({ 'a.md': 'Go to [[Nowhere]] and [[Twin]].', 'one/Twin.md': '', 'two/Twin.md': '' });
    expect(links(r, 'a.md')).toEqual([]);
    expect(r.notes.find((n) => n.path === 'a.md')!.body).toBe('Go to [[Nowhere]] and [[Twin]].');
    expect(r.problems).toEqual([
      { path: 'a.md', kind: 'unresolved_link', detail: expect.stringContaining('[[Nowhere]]') },
      { path: 'a.md', kind: 'ambiguous_link', detail: expect.stringContaining('one/Twin.md, two/Twin.md') },
      { path: 'two/Twin.md', kind: 'duplicate_title', detail: expect.stringContaining('imported as "Twin (two)"') },
    ]);
  });

  it('prefers the candidate in the linking note\'s own folder', () => {
    const r = read({ 'one/a.md': '[[Twin]]', 'one/Twin.md': '', 'two/Twin.md': '' });
    expect(links(r, 'one/a.md')).toEqual([{ target: 'one/Twin.md', type: 'references' }]);
  });

  it('never links inside code or to itself', () => {
    const r = read({ 'a.md': '`[[b]]`\n\n```\n[[b]]\n```\n\n[[a]]', 'b.md': '' });
    expect(links(r, 'a.md')).toEqual([]);
  });

  it('lists embedded attachments for the caller to capture', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const r = read({
      'n.md': '![[diagram.png]] ![[diagram.png|300]] ![](files/paper%20one.pdf) ![[missing.png]]',
      'm.md': '[[diagram.png]]',
      'assets/diagram.png': png,
      'files/paper one.pdf': '%PDF-1.4',
    });
    expect(r.notes.find((n) => n.path === 'n.md')!.attachments).toEqual(['assets/diagram.png', 'files/paper one.pdf']);
    expect(r.attachments.map((a) => [a.path, a.referencedBy])).toEqual([
      ['assets/diagram.png', ['m.md', 'n.md']],
      ['files/paper one.pdf', ['n.md']],
    ]);
    expect(r.attachments[0].bytes).toEqual(png);
    expect(r.problems).toEqual([{ path: 'n.md', kind: 'unresolved_link', detail: expect.stringContaining('![[missing.png]]') }]);
  });
});

describe('Markdown vault reader: folders', () => {
  const files = {
    'Projects/Website Redesign/Kickoff.md': '',
    'Projects/Website Redesign/research/Competitors.md': '',
    'Projects/Loose.md': '',
    '2 Areas/Health/Sleep.md': '',
    'Resources/Cooking/Bread.md': '',
    'Archive/Old Thing/Note.md': '',
    'Archive/Projects/Launch 2020/Retro.md': '',
    'Journal/2024/Jan.md': '',
    'Top.md': '',
  };
  const byPath = (r: ReturnType<typeof read>) => Object.fromEntries(r.notes.map((n) => [n.path, { tags: n.tags, para: n.para }]));

  it('maps top-level PARA folders to items with --para-from-folders', () => {
    const r = byPath(read(files, true));
    expect(r['Projects/Website Redesign/Kickoff.md']).toEqual({ tags: [], para: [{ category: 'projects', label: 'Website Redesign', status: 'active' }] });
    expect(r['Projects/Website Redesign/research/Competitors.md']).toEqual({ tags: ['research'], para: [{ category: 'projects', label: 'Website Redesign', status: 'active' }] });
    expect(r['Projects/Loose.md']).toEqual({ tags: [], para: [] });
    expect(r['2 Areas/Health/Sleep.md'].para).toEqual([{ category: 'areas', label: 'Health', status: 'active' }]);
    expect(r['Resources/Cooking/Bread.md'].para).toEqual([{ category: 'resources', label: 'Cooking', status: 'active' }]);
    expect(r['Archive/Old Thing/Note.md'].para).toEqual([{ category: 'resources', label: 'Old Thing', status: 'archived' }]);
    expect(r['Archive/Projects/Launch 2020/Retro.md'].para).toEqual([{ category: 'projects', label: 'Launch 2020', status: 'archived' }]);
    expect(r['Journal/2024/Jan.md']).toEqual({ tags: ['Journal/2024'], para: [] });
    expect(r['Top.md']).toEqual({ tags: [], para: [] });
  });

  it('lists each PARA item once', () => {
    const r = read(files, true);
    expect(r.paraItems.map((p) => `${p.category}:${p.label}`).sort()).toEqual([
      'areas:Health', 'projects:Launch 2020', 'projects:Website Redesign', 'resources:Cooking', 'resources:Old Thing',
    ]);
  });

  it('maps folders to tags without the option', () => {
    const r = byPath(read(files, false));
    expect(r['Projects/Website Redesign/Kickoff.md']).toEqual({ tags: ['Projects/Website Redesign'], para: [] });
    expect(r['Top.md']).toEqual({ tags: [], para: [] });
  });
});
