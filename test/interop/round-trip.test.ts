// Export → read back: the same titles, tags, statuses, typed link pairs, PARA items and
// associations, whatever the titles and bodies hold.
import { describe, expect, it } from 'vitest';
import { writeMarkdownVault } from '../../src/interop/export/markdown-writer.js';
import { zipBuffer } from '../../src/interop/export/zip-writer.js';
import { readZip } from '../../src/interop/sources/zip.js';
import { readVault } from '../../src/interop/vault/read-vault.js';
import type { ExportNode, ExportParaItem } from '../../src/interop/export/types.js';
import { LINK_TYPES } from '../../src/schemas/enums.js';

function rng(seed: number) {
  return () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const NASTY_TITLES = ['CON', 'con', 'a/b\\c', 'What? *Really*: "yes"', 'trailing dot.', ' spaced ', '[[brackets]] #hash ^caret |pipe', 'Émigré café', 'Emigre cafe', 'x'.repeat(300), '---', 'title: not yaml', '# heading', '日本語のノート'];
const BODIES = [
  '', 'plain text', '# Heading\n\n- [ ] task\n- [x] done\n', '```js\nconst x = "[[not a link]] #nottag";\n```\n',
  // As the reader writes unknown keys back into a body.
  '---\nfoo: bar\nlist:\n  - 1\n  - 2\n---\n\nbody with its own front matter', 'Mentions #inline and [[Somewhere Else]]', '<!-- comment -->\n\ntext',
];

function graph(seed: number): { nodes: ExportNode[]; items: ExportParaItem[] } {
  const r = rng(seed);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const items: ExportParaItem[] = [
    { id: 'i1', category: 'projects', label: 'Launch: v2', slug: 'launch-v2', status: 'active', description: 'ship it' },
    { id: 'i2', category: 'projects', label: 'Launch/v2', slug: 'launch-v2-2', status: 'completed' },
    { id: 'i3', category: 'areas', label: 'Health', slug: 'health', status: 'active' },
    { id: 'i4', category: 'resources', label: 'Recipes', slug: 'recipes', status: 'active' },
    { id: 'i5', category: 'resources', label: 'Old stuff', slug: 'old-stuff', status: 'archived' },
  ];
  const active = items.filter((i) => i.status !== 'archived').map((i) => i.id);
  const nodes: ExportNode[] = Array.from({ length: 40 }, (_, k) => ({
    id: `n${String(k).padStart(3, '0')}`,
    title: k < NASTY_TITLES.length ? NASTY_TITLES[k] : r() < 0.2 ? 'Duplicate title' : `Note ${k}`,
    summary: r() < 0.5 ? `summary ${k}` : '',
    body_markdown: pick(BODIES),
    tags: [...new Set(Array.from({ length: Math.floor(r() * 4) }, () => pick(['alpha', 'beta', 'Gamma Ray', '123', 'nested/tag', 'yes'])))],
    status: pick(['raw', 'validated', 'dismissed'] as const),
    para_item_ids: [...new Set(Array.from({ length: Math.floor(r() * 3) }, () => pick(active)))],
    created_at: new Date(Date.UTC(2024, 0, 1) + k * 3600_000).toISOString(),
    updated_at: new Date(Date.UTC(2024, 5, 1) + k * 3600_000).toISOString(),
    occurred_at: k % 3 === 0 ? new Date(Date.UTC(2019, 4, 20) + k * 86_400_000).toISOString() : null,
    links: [],
  }));
  // Links come in pairs, as the graph stores them: a typed link and its inverse.
  const inverse: Record<string, string> = { related: 'related', references: 'referenced_by', supports: 'supported_by', contradicts: 'contradicts', part_of: 'has_part', derived_from: 'source_of' };
  for (let i = 0; i < 60; i++) {
    const a = pick(nodes);
    const b = pick(nodes);
    const type = pick(Object.keys(inverse)) as ExportNode['links'][number]['type'];
    if (a === b || a.links.some((l) => l.target_id === b.id) || b.links.some((l) => l.target_id === a.id)) continue;
    a.links.push({ target_id: b.id, type });
    b.links.push({ target_id: a.id, type: inverse[type] as ExportNode['links'][number]['type'] });
  }
  expect(LINK_TYPES).toEqual(expect.arrayContaining(Object.values(inverse)));
  return { nodes, items };
}

describe('round trip at the format level', () => {
  for (const seed of [1, 2, 3]) {
    it(`export → zip → read back gives the same graph (seed ${seed})`, async () => {
      const { nodes, items } = graph(seed);
      const { files, paths } = writeMarkdownVault(nodes, items);
      const unzipped = await readZip(await zipBuffer(files));
      expect(unzipped.problems).toEqual([]);
      const back = readVault(unzipped.files, { source: 'markdown:export' });
      expect(back.problems).toEqual([]);
      expect(back.notes).toHaveLength(nodes.length);

      const byId = new Map(back.notes.map((n) => [n.exportedId, n]));
      const titleOfPath = new Map(back.notes.map((n) => [n.path, n.exportedId]));
      const itemKey = (i: { category: string; slug?: string; label: string; status: string; description?: string }) => `${i.category}|${i.slug}|${i.label}|${i.status}|${i.description ?? ''}`;
      expect(back.paraItems.map(itemKey).sort()).toEqual(items.map(itemKey).sort());
      for (const n of nodes) {
        const r = byId.get(n.id)!;
        expect(r.path).toBe(paths.get(n.id));
        expect(r.title).toBe(n.title.trim() || n.title);
        expect(r.summary ?? '').toBe(n.summary);
        expect(r.tags).toEqual(n.tags);
        expect(r.status).toBe(n.status);
        expect(r.created).toBe(n.created_at);
        expect(r.updated).toBe(n.updated_at);
        expect(r.occurred ?? null).toBe(n.occurred_at);
        expect(r.body).toBe(n.body_markdown);
        expect(r.para.map((p) => `${p.category}/${p.slug}`)).toEqual(n.para_item_ids.map((id) => items.find((i) => i.id === id)!).map((i) => `${i.category}/${i.slug}`));
        expect(r.links.map((l) => `${titleOfPath.get(l.target)}:${l.type}`).sort()).toEqual(n.links.map((l) => `${l.target_id}:${l.type}`).sort());
      }
    });
  }
});
