import { describe, expect, it } from 'vitest';
import { readVault } from '../../src/interop/vault/read-vault.js';
import { vault } from './helpers.js';

const read = (files: Record<string, string | Uint8Array>, paraFromFolders = false) => readVault(vault(files), { source: 'markdown:test', paraFromFolders });
const note = (r: ReturnType<typeof read>, path: string) => r.notes.find((n) => n.path === path)!;

describe('Markdown vault reader: fields', () => {
  it('takes the title from front matter, else the first # heading, else the file name', () => {
    const r = read({
      'a.md': '---\ntitle: From Front Matter\n---\n# Heading A\ntext',
      'b.md': 'intro\n\n## Not this\n\n# Heading **B**\n',
      'c d.md': 'no heading here',
    });
    expect(note(r, 'a.md').title).toBe('From Front Matter');
    expect(note(r, 'b.md').title).toBe('Heading B');
    expect(note(r, 'c d.md').title).toBe('c d');
    expect(note(r, 'a.md').body).toBe('# Heading A\ntext');
  });

  it('reads tags in every usual shape, with inline #tags from text only', () => {
    const r = read({
      'list.md': '---\ntags: [alpha, "#beta"]\n---\nBody #inline and #nested/tag, not C# or #123 or `#code`.\n\n```\n#fenced\n```\n\n[#linktext](https://x.org/#frag) [[Other#Heading]] ## heading',
      'comma.md': '---\ntags: one, two ,three\n---\n',
      'spaces.md': '---\ntags: "#one #two"\n---\n',
      'yamlList.md': '---\ntags:\n  - a\n  - b\n---\n# Title #intitle\n',
      'single.md': '---\ntag: solo\n---\n',
      'Other.md': '# Heading',
    });
    expect(note(r, 'list.md').tags).toEqual(['alpha', 'beta', 'inline', 'nested/tag']);
    expect(note(r, 'comma.md').tags).toEqual(['one', 'two', 'three']);
    expect(note(r, 'spaces.md').tags).toEqual(['one', 'two']);
    expect(note(r, 'yamlList.md').tags).toEqual(['a', 'b', 'intitle']);
    expect(note(r, 'single.md').tags).toEqual(['solo']);
  });

  it('reads aliases, dates in several formats and our statuses; keeps unknown keys in the body', () => {
    const r = read({
      'n.md': '---\naliases: [Alt One, Alt Two]\ncreated: 2024-03-05\nmodified: 2024-03-06T10:20:30+02:00\nstatus: Validated\ncssclass: wide\nrating: 4\n---\nBody text\n',
      'm.md': '---\ndate: March 5, 2024\nupdated: 1709640000\nstatus: draft\n---\n',
      'o.md': '---\ncreated: 05.03.2024\nupdated: 2024/03/05 08:00\n---\n',
    });
    const n = note(r, 'n.md');
    expect(n.aliases).toEqual(['Alt One', 'Alt Two']);
    expect(n.created).toBe('2024-03-05T00:00:00.000Z');
    expect(n.updated).toBe('2024-03-06T08:20:30.000Z');
    expect(n.status).toBe('validated');
    expect(n.body).toBe('---\ncssclass: wide\nrating: 4\n---\n\nBody text\n');
    const m = note(r, 'm.md');
    expect(m.created).toBe('2024-03-05T00:00:00.000Z');
    expect(m.updated).toBe('2024-03-05T12:00:00.000Z');
    expect(m.status).toBeUndefined();
    expect(m.body).toContain('status: draft');
    expect(note(r, 'o.md').created).toBe('2024-03-05T00:00:00.000Z');
    expect(note(r, 'o.md').updated).toBe('2024-03-05T08:00:00.000Z');
  });

  it('reads a Logseq page\'s property block (title::, tags::, alias::) and leaves it in the body', () => {
    const page = 'title:: Gardening log\ntags:: [[garden]], #outdoors, plants\nalias:: Garden, Yard\n\n- Planted [[Tomatoes]] today\n  - watered twice\n';
    const r = read({ 'pages/gardening.md': page, 'pages/Tomatoes.md': '- red', 'pages/garden.md': '', 'notes/x.md': 'see [[Yard]]' });
    const n = note(r, 'pages/gardening.md');
    expect(n).toMatchObject({ title: 'Gardening log', aliases: ['Garden', 'Yard'], body: page });
    expect(n.tags).toEqual(['garden', 'outdoors', 'plants', 'pages']);
    expect(n.links.map((l) => l.target)).toEqual(['pages/garden.md', 'pages/Tomatoes.md']);
    expect(note(r, 'notes/x.md').links).toEqual([{ target: 'pages/gardening.md', type: 'references' }]);
    expect(note(r, 'notes/x.md').tags).toEqual(['notes']);
  });

  it('keeps task lists and code blocks as Markdown', () => {
    const body = '# Tasks\n\n- [ ] open #todo\n- [x] done\n\n```js\nconst a = "[[not a link]] #nottag";\n```\n';
    const r = read({ 't.md': body });
    expect(note(r, 't.md').body).toBe(body);
    expect(note(r, 't.md').tags).toEqual(['todo']);
    expect(r.problems).toEqual([]);
  });

  it('imports malformed front matter as text with a warning', () => {
    const r = read({ 'bad.md': '---\ntitle: [unclosed\n---\n# Real Title\n', 'open.md': '---\ntitle: x\n\nno closing fence\n', 'list.md': '---\n- a\n- b\n---\nbody' });
    expect(note(r, 'bad.md').title).toBe('Real Title');
    expect(note(r, 'bad.md').body).toBe('---\ntitle: [unclosed\n---\n# Real Title\n');
    expect(note(r, 'list.md').body).toBe('---\n- a\n- b\n---\nbody');
    const kinds = r.problems.map((p) => `${p.path}:${p.kind}`);
    expect(kinds).toEqual(expect.arrayContaining(['bad.md:malformed_front_matter', 'open.md:malformed_front_matter', 'list.md:malformed_front_matter']));
  });

  it('reports non-UTF-8 files instead of importing them', () => {
    const latin1 = new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x0a]); // "Café" in ISO-8859-1
    const r = read({ 'latin.md': latin1, 'ok.md': 'fine' });
    expect(r.notes.map((n) => n.path)).toEqual(['ok.md']);
    expect(r.problems).toEqual([{ path: 'latin.md', kind: 'not_utf8', detail: expect.stringContaining('UTF-8') }]);
  });

  it('reports duplicate titles and disambiguates them by folder', () => {
    const r = read({ 'Work/Meeting.md': '# Meeting', 'Home/Meeting.md': '# Meeting', 'Meeting.md': 'x' });
    expect(r.notes.map((n) => n.title).sort()).toEqual(['Meeting', 'Meeting (Meeting.md)', 'Meeting (Work)'].sort());
    expect(r.problems.filter((p) => p.kind === 'duplicate_title')).toHaveLength(2);
  });

  it('gives each note a key from source + path and a content hash', () => {
    const a = read({ 'x/a.md': 'same' });
    const b = read({ 'x/a.md': 'same' });
    const c = read({ 'x/a.md': 'changed' });
    expect(a.notes[0].key).toBe('markdown:test:x/a.md');
    expect(a.notes[0].contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(b.notes[0].contentHash).toBe(a.notes[0].contentHash);
    expect(c.notes[0].contentHash).not.toBe(a.notes[0].contentHash);
  });

  it('skips hidden tool folders and unreferenced non-note files', () => {
    const r = read({ '.obsidian/app.json': '{}', '.trash/old.md': '# old', 'a.md': 'x', 'loose.png': 'png' });
    expect(r.notes.map((n) => n.path)).toEqual(['a.md']);
    expect(r.skipped.sort()).toEqual(['.obsidian/app.json', '.trash/old.md', 'loose.png']);
  });
});
