// Import and export through the HTTP API, the way a client uses them: a tenant's graph is
// exported as a zip and imported into an empty tenant, which then holds the same nodes,
// tags, statuses, typed link pairs, PARA items and associations.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';
import { readZip } from '../../src/interop/sources/zip.js';
import { rawZip } from './zip-bytes.js';
import { makePng } from '../fixtures/generate.js';

let t: TestApp;
beforeEach(async () => { t = await makeTestApp(); });
afterEach(async () => { await t.close(); });

async function ok<T = any>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

function form(name: string, bytes: Uint8Array, fields: Record<string, string> = {}): FormData {
  const f = new FormData();
  f.append('file', new Blob([new Uint8Array(bytes)]), name);
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

async function runImport(path: string, body: FormData, auth?: string) {
  const accepted = await ok(await t.req('POST', path, body, auth), 202);
  expect(accepted).toMatchObject({ id: expect.stringMatching(/^imp_/), status: 'running' });
  await t.s.imports.idle();
  return ok(await t.req('GET', `/api/v1/imports/${accepted.id}`, undefined, auth));
}

/** A tenant's graph by titles, so two tenants (with different ids) compare. */
async function graphOf(auth?: string) {
  const doc = await ok(await t.req('GET', '/api/v1/exports/json', undefined, auth));
  const title = new Map<string, string>(doc.nodes.map((n: any) => [n.id, n.title]));
  const item = new Map<string, any>(doc.para_items.map((i: any) => [i.id, i]));
  return {
    nodes: doc.nodes.map((n: any) => ({ title: n.title, created: n.created_at, updated: n.updated_at, summary: n.summary, body: n.body_markdown, tags: n.tags, status: n.status, para: n.para_item_ids.map((id: string) => `${item.get(id).category}/${item.get(id).label}`).sort() })).sort((a: any, b: any) => a.title.localeCompare(b.title)),
    links: doc.nodes.flatMap((n: any) => n.links.map((l: any) => `${n.title} -${l.type}-> ${title.get(l.target_id)}`)).sort(),
    items: doc.para_items.map((i: any) => `${i.category}/${i.label}/${i.status}/${i.description ?? ''}`).sort(),
  };
}

async function seedGraph() {
  const item = async (category: string, label: string, description?: string) => (await ok(await t.req('POST', '/api/v1/para', { category, label, description }), 201)).id as string;
  const site = await item('projects', 'Website: Redesign', 'new site');
  const health = await item('areas', 'Health');
  const old = await item('resources', 'Old Recipes');
  const node = async (title: string, extra: Record<string, unknown> = {}) => (await ok(await t.req('POST', '/api/v1/nodes', { title, ...extra }), 201)).id as string;
  const a = await node('Kickoff notes', { content: '# Kickoff\n\n- [ ] agenda\n- [x] invite\n\n```sh\necho "#nottag"\n```\n', tags: ['meeting', 'Q3 plan'], status: 'validated', para_item_ids: [site, health], summary: 'first meeting' });
  const b = await node('CON', { content: 'A note whose title is a reserved file name.', para_item_ids: [site] });
  const c = await node('Sleep: what works?', { content: 'orphan with a [[Kickoff notes]] mention', status: 'dismissed', tags: ['health'] });
  const d = await node('Sourdough', { para_item_ids: [old] });
  await ok(await t.req('PATCH', `/api/v1/nodes/${a}/links`, { links: [{ target_id: b, type: 'supports' }, { target_id: c, type: 'related' }] }));
  await ok(await t.req('PATCH', `/api/v1/nodes/${c}/links`, { links: [{ target_id: a, type: 'related' }, { target_id: d, type: 'derived_from' }] }));
  await ok(await t.req('POST', `/api/v1/para/${old}/archive`));
}

describe('import and export over the API', () => {
  it('round-trips a tenant through a Markdown zip into an empty tenant', async () => {
    await seedGraph();
    const res = await t.req('GET', '/api/v1/exports/markdown');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const zip = new Uint8Array(await res.arrayBuffer());
    const files = (await readZip(zip)).files.map((f) => f.path).sort();
    expect(files).toEqual(expect.arrayContaining(['.rhizome/para.yaml', 'Projects/Website- Redesign/Kickoff notes.md', 'Inbox/Sleep- what works-.md']));

    t.clock.advance(30 * 86_400_000); // the import happens a month later: dates must come from the files
    const beta = await t.tenant('beta');
    const run = await runImport('/api/v1/imports/markdown', form('export.zip', zip), beta.auth);
    expect(run).toMatchObject({ status: 'completed', counts: { total: 4, created: 4, updated: 0, skipped: 0, failed: 0, unresolved_links: 0, para_items_created: 3 } });
    expect(await graphOf(beta.auth)).toEqual(await graphOf());

    // Importing the same export again changes nothing.
    const again = await runImport('/api/v1/imports/markdown', form('export.zip', zip), beta.auth);
    expect(again.counts).toMatchObject({ created: 0, updated: 0, skipped: 4 });
    expect(await graphOf(beta.auth)).toEqual(await graphOf());
  });

  it('imports a vault zip with --para-from-folders, updates changed files in place and reports problems', async () => {
    const v1 = rawZip([
      { name: 'Projects/Launch/Plan.md', data: '---\ntags: [plan]\n---\n# Plan\n\nSee [[Budget]] and [[Missing]].' },
      { name: 'Projects/Launch/Budget.md', data: '# Budget\n#money' },
      { name: '../escape.md', data: 'x' },
      { name: 'Broken.md', data: '---\ntitle: [oops\n---\ntext' },
    ]);
    const r1 = await runImport('/api/v1/imports/markdown', form('vault.zip', v1, { para_from_folders: 'true' }));
    expect(r1.counts).toMatchObject({ total: 3, created: 3, unresolved_links: 1, para_items_created: 1 });
    expect(r1.problems.map((p: any) => p.kind).sort()).toEqual(['malformed_front_matter', 'unresolved_link', 'unsafe_path']);
    const g1 = await graphOf();
    expect(g1.nodes.find((n: any) => n.title === 'Plan')).toMatchObject({ tags: ['plan'], para: ['projects/Launch'] });
    expect(g1.links).toEqual(['Budget -referenced_by-> Plan', 'Plan -references-> Budget']);

    const v2 = rawZip([
      { name: 'Projects/Launch/Plan.md', data: '---\ntags: [plan, v2]\n---\n# Plan\n\nSee [[Budget]].' },
      { name: 'Projects/Launch/Budget.md', data: '# Budget\n#money' },
      { name: 'Broken.md', data: '---\ntitle: [oops\n---\ntext' },
    ]);
    const r2 = await runImport('/api/v1/imports/markdown', form('vault.zip', v2, { para_from_folders: 'true' }));
    expect(r2.counts).toMatchObject({ created: 0, updated: 1, skipped: 2, para_items_created: 0 });
    const g2 = await graphOf();
    expect(g2.nodes).toHaveLength(3);
    expect(g2.nodes.find((n: any) => n.title === 'Plan').tags).toEqual(['plan', 'v2']);

    // The same vault zipped under another name: unchanged files are recognised by content.
    const r3 = await runImport('/api/v1/imports/markdown', form('renamed.zip', v2, { para_from_folders: 'true' }));
    expect(r3.counts).toMatchObject({ created: 0, skipped: 3 });
    expect((await graphOf()).nodes).toHaveLength(3);

    // A note in an item that is archived by now is still updated (the archived item is left alone).
    const v3 = rawZip([{ name: 'Archive/Old/Gone.md', data: '# Gone' }]);
    expect((await runImport('/api/v1/imports/markdown', form('old.zip', v3, { para_from_folders: 'true' }))).counts).toMatchObject({ created: 1, failed: 0 });
    const v4 = rawZip([{ name: 'Archive/Old/Gone.md', data: '# Gone\n\nedited' }]);
    expect((await runImport('/api/v1/imports/markdown', form('old.zip', v4, { para_from_folders: 'true' }))).counts).toMatchObject({ updated: 1, failed: 0 });
    const [old] = (await ok(await t.req('GET', '/api/v1/para?status=archived'))).data;
    await ok(await t.req('POST', `/api/v1/para/${old.id}/unarchive`));
    expect((await graphOf()).nodes.find((n: any) => n.title === 'Gone').para).toEqual(['resources/Old']);

    // Files with equal content at different paths stay separate notes.
    const twins = rawZip([{ name: 'one/Empty.md', data: '' }, { name: 'two/Blank.md', data: '' }]);
    const r4 = await runImport('/api/v1/imports/markdown', form('twins.zip', twins));
    expect(r4.counts).toMatchObject({ created: 2 });
  });

  it('takes a vault zip larger than the 1 MB JSON body limit; a note over the node size limit fails alone', async () => {
    const text = (n: number) => randomBytes(n).toString('base64');
    const zip = rawZip([
      { name: 'a.md', data: `# A\n\n${text(350_000)}` }, { name: 'b.md', data: `# B\n\n${text(350_000)}` },
      { name: 'huge.md', data: `# Huge\n\n${text(400_000)}` }, { name: 'small.md', data: '# Small' },
    ]);
    expect(zip.length).toBeGreaterThan(1024 * 1024);
    const run = await runImport('/api/v1/imports/markdown', form('big.zip', zip));
    expect(run.counts).toMatchObject({ total: 4, created: 3, failed: 1 });
    expect(run.problems).toEqual([{ path: 'huge.md', kind: 'unreadable', detail: expect.stringContaining('500000 characters') }]);
  });

  it('captures embedded attachments once, naming the notes that embed them', async () => {
    const zip = rawZip([
      { name: 'Trip.md', data: '# Trip\n\n![[map.png]]\n\n![[missing.pdf]]' },
      { name: 'assets/map.png', data: new Uint8Array(makePng()) },
      { name: 'unused.png', data: new Uint8Array(makePng()) },
    ]);
    const run = await runImport('/api/v1/imports/markdown', form('trip.zip', zip));
    expect(run.counts).toMatchObject({ created: 1, attachments_captured: 1, unresolved_links: 1 });
    const caps = (await ok(await t.req('GET', '/api/v1/captures'))).data;
    expect(caps).toEqual([expect.objectContaining({ title: 'map', content_type: 'image', why: 'Embedded in [[Trip]]' })]);
    const again = await runImport('/api/v1/imports/markdown', form('trip.zip', zip));
    expect(again.counts).toMatchObject({ skipped: 1, attachments_captured: 0 });
    // Once processed, the note that embeds the file references the file's node.
    await t.s.queue.start();
    await t.s.queue.idle();
    await t.s.queue.stop();
    const cap = await ok(await t.req('GET', `/api/v1/captures/${caps[0].id}`));
    expect(cap).toMatchObject({ status: 'completed', node_id: expect.any(String) });
    const trip = (await ok(await t.req('GET', '/api/v1/nodes?query=Trip&mode=keyword'))).data.find((n: { title: string }) => n.title === 'Trip');
    const related = (await ok(await t.req('GET', `/api/v1/nodes/${trip.id}/related`))).nodes;
    expect(related).toContainEqual(expect.objectContaining({ id: cap.node_id, relationship_type: 'references' }));
  });

  it('refuses what is not a zip, and a zip bomb, changing nothing', async () => {
    await expectProblem(await t.req('POST', '/api/v1/imports/markdown', form('notes.zip', new TextEncoder().encode('not a zip'))), 400, 'validation_failed');
    const bomb = rawZip(Array.from({ length: 30 }, (_, i) => ({ name: `b${i}.md`, data: new Uint8Array(1000), declaredSize: 20 * 1024 * 1024 })));
    const p = await expectProblem(await t.req('POST', '/api/v1/imports/markdown', form('bomb.zip', bomb)), 400, 'validation_failed');
    expect(p.detail).toMatch(/nothing expanded/);
    expect((await graphOf()).nodes).toEqual([]);
    await expectProblem(await t.req('POST', '/api/v1/imports/markdown', 'x'), 415, 'unsupported_media_type');
  });

  it('imports bookmarks as URL captures with their tags and note, skipping URLs already captured', async () => {
    const html = new Uint8Array(readFileSync('test/fixtures/interop/netscape-bookmarks.html'));
    const run = await runImport('/api/v1/imports/bookmarks', form('bookmarks.html', html));
    expect(run).toMatchObject({ kind: 'bookmarks', status: 'completed', counts: { total: 4, created: 4, skipped: 0 } });
    const list = await ok(await t.req('GET', '/api/v1/captures?per_page=100'));
    const nature = list.data.find((c: any) => c.url.startsWith('https://www.nature.com/'));
    expect(nature).toMatchObject({ title: 'Why AI needs a lab notebook', why: expect.stringContaining('Argues for provenance'), status: 'pending' });
    const again = await runImport('/api/v1/imports/bookmarks', form('bookmarks.html', html));
    expect(again.counts).toMatchObject({ created: 0, skipped: 4 });
    // Offline, the fetch fails at once: the bookmark node keeps the date it was first saved.
    await t.s.queue.start();
    await t.s.queue.idle();
    await t.s.queue.stop();
    const processed = await ok(await t.req('GET', `/api/v1/captures/${nature.id}`));
    expect(processed.node_id).toEqual(expect.any(String));
    const node = await ok(await t.req('GET', `/api/v1/nodes/${processed.node_id}`));
    expect(node.created_at).toBe(new Date(1700000500 * 1000).toISOString());
    expect(node.tags).toEqual(expect.arrayContaining(['science', 'ai']));
  });

  it('answers a bookmark file of the wrong format with a 400 naming the formats understood', async () => {
    const p = await expectProblem(await t.req('POST', '/api/v1/imports/bookmarks', form('b.json', new TextEncoder().encode('{"hello": 1}'))), 400, 'validation_failed');
    expect(p.detail).toMatch(/Netscape bookmark HTML.*Pocket CSV.*Omnivore.*Karakeep.*Linkwarden/);
  });

  it('reports a run the server stopped during as interrupted, and importing again completes it', async () => {
    const zip = rawZip([{ name: 'a.md', data: '# A' }, { name: 'b.md', data: '# B' }]);
    // As if the process died after the first note landed: its key row is there, the run still "running".
    const first = await runImport('/api/v1/imports/markdown', form('v.zip', rawZip([{ name: 'a.md', data: '# A' }])));
    await t.s.repos.imports.insert({ id: 'imp_cut', tenant_id: t.tenantId, kind: 'markdown', status: 'running', total: 2, created_at: '2026-01-01T00:00:00.000Z' });
    expect(await t.s.imports.markInterrupted()).toBe(1);
    expect(await ok(await t.req('GET', '/api/v1/imports/imp_cut'))).toMatchObject({ status: 'interrupted', finished_at: expect.any(String) });
    expect(first.status).toBe('completed');
    const again = await runImport('/api/v1/imports/markdown', form('v.zip', zip));
    expect(again.counts).toMatchObject({ created: 1, skipped: 1 });
    expect((await graphOf()).nodes.map((n: any) => n.title)).toEqual(['A', 'B']);
  });

  it('keeps import runs per tenant', async () => {
    const run = await ok(await t.req('POST', '/api/v1/imports/bookmarks', form('p.csv', new TextEncoder().encode('title,url,time_added,tags,status\nA,https://a.example/,1,,unread\n'))), 202);
    await t.s.imports.idle();
    const other = await t.tenant('other');
    await expectProblem(await t.req('GET', `/api/v1/imports/${run.id}`, undefined, other.auth), 404, 'not_found');
  });
});
