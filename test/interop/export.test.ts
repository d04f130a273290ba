import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { writeMarkdownVault } from '../../src/interop/export/markdown-writer.js';
import { safeStem, UniqueNames } from '../../src/interop/export/file-names.js';
import { zipBuffer } from '../../src/interop/export/zip-writer.js';
import { buildJsonExport } from '../../src/interop/export/json-export.js';
import { readZip } from '../../src/interop/sources/zip.js';
import type { ExportNode, ExportParaItem } from '../../src/interop/export/types.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const base = { summary: '', status: 'raw' as const, tags: [], para_item_ids: [], links: [], created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-02T00:00:00.000Z' };

describe('safe, unique file names', () => {
  it('avoids reserved names, forbidden and wikilink-breaking characters, trailing dots and overlong names', () => {
    expect(safeStem('CON')).not.toMatch(/^con$/i);
    expect(safeStem('nul')).not.toMatch(/^nul$/i);
    expect(safeStem('a<b>c:d"e/f\\g|h?i*j')).not.toMatch(/[<>:"/\\|?*]/);
    expect(safeStem('What is [[this]] #tag ^x')).toBe('What is this tag x');
    expect(safeStem('ends with dots... ')).toBe('ends with dots');
    expect(safeStem('.hidden')).toBe('hidden');
    expect(safeStem('\u0000\u0001')).toBe('Untitled');
    expect(safeStem('x'.repeat(400)).length).toBeLessThanOrEqual(100);
  });

  it('makes names unique the way case-insensitive file systems compare them', () => {
    const u = new UniqueNames();
    expect([u.claim('Note', '.md'), u.claim('note', '.md'), u.claim('NOTE', '.md'), u.claim('Note', '.pdf')]).toEqual(['Note', 'note 2', 'NOTE 3', 'Note']);
    expect(u.claim('Cafe\u0301', '.md')).toBe('Cafe\u0301');
    expect(u.claim('Caf\u00e9', '.md')).toBe('Caf\u00e9 2');
  });
});

describe('Markdown export', () => {
  const items: ExportParaItem[] = [
    { id: 'p1', category: 'projects', label: 'Site: Redesign?', slug: 'site-redesign', status: 'active', description: 'the new site' },
    { id: 'a1', category: 'areas', label: 'Health', slug: 'health', status: 'active' },
    { id: 'r1', category: 'resources', label: 'Old', slug: 'old', status: 'archived' },
  ];
  const nodes: ExportNode[] = [
    { ...base, id: 'n1', title: 'Kickoff', body_markdown: '---\ncssclass: wide\n---\n\n# Kickoff\n\n- [ ] agenda\n', tags: ['meeting'], status: 'validated', para_item_ids: ['p1', 'a1'], links: [{ target_id: 'n2', type: 'supports' }], attachments: [{ name: 'slides.pdf', bytes: new TextEncoder().encode('%PDF') }] },
    { ...base, id: 'n2', title: 'CON', body_markdown: 'orphan', links: [{ target_id: 'n1', type: 'supported_by' }], created_at: '2024-01-03T00:00:00.000Z' },
    { ...base, id: 'n3', title: 'con', body_markdown: '', created_at: '2024-01-04T00:00:00.000Z' },
  ];
  const { files, paths } = writeMarkdownVault(nodes, items);
  const file = (p: string) => text(files.find((f) => f.path === p)!.bytes);

  it('places notes by PARA item, orphans in Inbox/, attachments beside their note', () => {
    expect([...paths.values()]).toEqual(['Projects/Site- Redesign-/Kickoff.md', expect.stringMatching(/^Inbox\/CON-?\.md$/), expect.stringMatching(/^Inbox\/con-? 2\.md$/)]);
    expect(files.map((f) => f.path)).toContain('Projects/Site- Redesign-/slides.pdf');
    expect(files.map((f) => f.path)).toContain('.rhizome/para.yaml');
  });

  it('writes the front matter fields, merges the body\'s own keys and adds a Links section of wikilinks', () => {
    const t = file('Projects/Site- Redesign-/Kickoff.md');
    const fm = parseYaml(t.split('---\n')[1]);
    const n2stem = paths.get('n2')!.slice('Inbox/'.length, -3);
    expect(fm).toEqual({
      id: 'n1', title: 'Kickoff', tags: ['meeting'], status: 'validated', para: ['projects/site-redesign', 'areas/health'],
      created: '2024-01-01T00:00:00.000Z', updated: '2024-01-02T00:00:00.000Z', links: [{ target: `[[${n2stem}]]`, type: 'supports' }], cssclass: 'wide',
    });
    expect(t).toContain('# Kickoff\n\n- [ ] agenda\n');
    expect(t).toContain(`## Links\n\n- supports [[${n2stem}]]\n- ![[slides.pdf]]\n`);
  });

  it('zips the same tree', async () => {
    const zip = await zipBuffer(files);
    const back = await readZip(zip);
    expect(back.problems).toEqual([]);
    expect(back.files.map((f) => f.path).sort()).toEqual(files.map((f) => f.path).sort());
    expect(text(back.files.find((f) => f.path === 'Projects/Site- Redesign-/Kickoff.md')!.bytes)).toBe(file('Projects/Site- Redesign-/Kickoff.md'));
  });

  it('builds the JSON export document', () => {
    const doc = buildJsonExport({ nodes, paraItems: items, exportedAt: new Date('2025-01-01T00:00:00Z') });
    expect(doc).toMatchObject({ format: 'rhizome-export', version: 1, exported_at: '2025-01-01T00:00:00.000Z', counts: { nodes: 3, links: 2, para_items: 3, captures: 0 } });
    expect(doc.nodes[0]).not.toHaveProperty('attachments');
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });
});
