// Highlights in and out: Kindle's My Clippings.txt and Readwise's CSV import with the right
// counts, dates, notes and anchors, a second import adds nothing; a Markdown export carries
// highlights as blockquotes under the note and an import reads them back.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';
import { readZip } from '../../src/interop/sources/zip.js';

let t: TestApp;
beforeEach(async () => { t = await makeTestApp(); });
afterEach(async () => { await t.close(); });

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/highlights/${name}`, import.meta.url)));

function form(name: string, bytes: Uint8Array): FormData {
  const f = new FormData();
  f.append('file', new Blob([new Uint8Array(bytes)]), name);
  return f;
}

async function runImport(path: string, name: string, bytes: Uint8Array, auth?: string) {
  const res = await t.req('POST', path, form(name, bytes), auth);
  expect(res.status, await res.clone().text()).toBe(202);
  const accepted = await res.json();
  await t.s.imports.idle();
  return { format: accepted.format as string | undefined, run: await (await t.req('GET', `/api/v1/imports/${accepted.id}`, undefined, auth)).json() };
}

async function nodesWithHighlights(auth?: string) {
  const list = (await (await t.req('GET', '/api/v1/nodes?per_page=100', undefined, auth)).json()).data as Array<{ id: string; title: string }>;
  const out: Record<string, { node: any; highlights: any[] }> = {};
  for (const n of list) {
    const node = await (await t.req('GET', `/api/v1/nodes/${n.id}`, undefined, auth)).json();
    out[n.title] = { node, highlights: node.annotations };
  }
  return out;
}

describe('Kindle My Clippings.txt', () => {
  it('imports one node per book with its highlights, notes, dates and anchors; a second import adds nothing', async () => {
    const { format, run } = await runImport('/api/v1/imports/highlights', 'My Clippings.txt', fixture('My Clippings.txt'));
    expect(format).toBe('kindle');
    expect(run).toMatchObject({ kind: 'highlights', status: 'completed', counts: { total: 3, created: 3, highlights_added: 4, failed: 0 } });
    const got = await nodesWithHighlights();
    expect(Object.keys(got).sort()).toEqual(['Meditations', 'The Overstory', 'Untitled Notes']);

    const overstory = got['The Overstory'];
    expect(overstory.node.tags).toEqual(['kindle', 'highlights']);
    expect(overstory.node.body_markdown).toContain('by Powers, Richard');
    // The extended highlight replaced its shorter first clipping; the bookmark is not a highlight.
    expect(overstory.highlights.map((h: any) => h.text)).toEqual([
      "The best arguments in the world won't change a person's mind.",
      'A tree is a verb, not a noun.',
    ]);
    expect(overstory.highlights[0]).toMatchObject({ note: 'Compare with the chapter on stories.', created_at: '2019-05-05T18:02:43.000Z', orphaned: false, color: 'yellow' });
    expect(overstory.highlights[1]).toMatchObject({ note: null, created_at: '2019-05-06T07:12:30.000Z' });
    // The node is dated by its first highlight.
    expect(overstory.node.created_at).toBe('2019-05-05T18:02:43.000Z');
    for (const h of overstory.highlights) {
      const pos = h.selectors.find((s: any) => s.type === 'TextPositionSelector');
      expect(overstory.node.body_markdown.slice(pos.start, pos.end)).toBe(h.text);
    }
    const med = got['Meditations'].highlights;
    expect(med).toMatchObject([{ text: 'You have power over your mind - not outside events.\nRealize this, and you will find strength.', created_at: '2020-03-03T21:15:02.000Z', orphaned: false }]);

    const again = await runImport('/api/v1/imports/highlights', 'My Clippings.txt', fixture('My Clippings.txt'));
    expect(again.run.counts).toMatchObject({ created: 0, updated: 0, skipped: 3, highlights_added: 0 });
    const after = await nodesWithHighlights();
    expect(Object.values(after).map((x) => x.highlights.length)).toEqual(Object.values(got).map((x) => x.highlights.length));
  });

  it('a later, longer clippings file adds only its new passages to the same book', async () => {
    const first = fixture('My Clippings.txt');
    await runImport('/api/v1/imports/highlights', 'My Clippings.txt', first);
    const more = new TextEncoder().encode(`${new TextDecoder().decode(first)}The Overstory (Powers, Richard)\r\n- Your Highlight on page 80 | Location 1200-1201 | Added on Friday, 10 May 2019 20:00:00\r\n\r\nWe found the forest.\r\n==========\r\n`);
    const { run } = await runImport('/api/v1/imports/highlights', 'My Clippings.txt', more);
    expect(run.counts).toMatchObject({ created: 0, updated: 1, skipped: 2, highlights_added: 1 });
    const o = (await nodesWithHighlights())['The Overstory'];
    expect(o.highlights.map((h: any) => h.text)).toContain('We found the forest.');
    expect(o.highlights.every((h: any) => !h.orphaned)).toBe(true);
  });
});

describe('Readwise CSV', () => {
  it('imports books with notes, colours and dates; a second import adds nothing', async () => {
    const { format, run } = await runImport('/api/v1/imports/highlights', 'readwise.csv', fixture('readwise-export.csv'));
    expect(format).toBe('readwise');
    expect(run.counts).toMatchObject({ total: 2, created: 2, highlights_added: 3 });
    const got = await nodesWithHighlights();
    expect(got['Teaming with Microbes'].highlights).toMatchObject([
      { text: "Compost is the soil's savings account.", note: 'Worth quoting, with commas.', color: 'yellow', created_at: '2021-03-12T18:13:00.000Z', orphaned: false },
      { text: 'Fungi move water and nutrients\nacross long distances.', note: null, color: 'blue', created_at: '2021-03-13T08:00:00.000Z', orphaned: false },
    ]);
    // A colour Rhizome does not have becomes the default.
    expect(got['How to Measure Anything'].highlights).toMatchObject([{ color: 'yellow', created_at: '2020-11-02T10:30:00.000Z' }]);
    const again = await runImport('/api/v1/imports/highlights', 'readwise.csv', fixture('readwise-export.csv'));
    expect(again.run.counts).toMatchObject({ created: 0, skipped: 2, highlights_added: 0 });
  });

  it('refuses a file that is neither format with problem+json, importing nothing', async () => {
    await expectProblem(await t.req('POST', '/api/v1/imports/highlights', form('notes.txt', new TextEncoder().encode('just some text'))), 400, 'validation_failed');
    expect((await (await t.req('GET', '/api/v1/nodes')).json()).data).toEqual([]);
  });
});

describe('Markdown export and import', () => {
  it('writes highlights as blockquotes under the note and reads them back into another tenant, once', async () => {
    const body = 'Soil is alive.\n\nCompost feeds the soil and the soil feeds the plants.\n\nMulch keeps the soil moist.';
    const id = (await (await t.req('POST', '/api/v1/nodes', { title: 'Soil', content: body })).json()).id;
    const other = (await (await t.req('POST', '/api/v1/nodes', { title: 'Other', content: 'no highlights here' })).json()).id;
    await t.req('PATCH', `/api/v1/nodes/${id}/links`, { links: [{ target_id: other, type: 'related' }] });
    await t.req('POST', `/api/v1/nodes/${id}/highlights`, { text: 'Compost feeds the soil', note: 'the key idea\n\nsecond paragraph --> of the note', color: 'green' });
    await t.req('POST', `/api/v1/nodes/${id}/highlights`, { text: 'the soil', selectors: [{ type: 'TextQuoteSelector', exact: 'the soil', prefix: 'Mulch keeps ', suffix: ' moist' }] });
    const before = (await (await t.req('GET', `/api/v1/nodes/${id}/highlights`)).json()).data;

    const zip = new Uint8Array(await (await t.req('GET', '/api/v1/exports/markdown')).arrayBuffer());
    const { files } = await readZip(zip);
    const note = new TextDecoder().decode(files.find((f) => f.path.endsWith('Soil.md'))!.bytes);
    expect(note).toContain('## Highlights');
    expect(note).toContain('> Compost feeds the soil');
    expect(note).toContain('the key idea');
    expect(note.indexOf('## Highlights')).toBeLessThan(note.indexOf('## Links'));

    const beta = await t.tenant('beta');
    const { run } = await runImport('/api/v1/imports/markdown', 'vault.zip', zip, beta.auth);
    expect(run.counts).toMatchObject({ created: 2, highlights_added: 2 });
    const imported = await nodesWithHighlights(beta.auth);
    expect(imported['Soil'].node.body_markdown).toBe(body);
    const strip = (h: any) => ({ text: h.text, note: h.note, color: h.color, selectors: h.selectors, orphaned: h.orphaned, created_at: h.created_at });
    expect(imported['Soil'].highlights.map(strip)).toEqual(before.map(strip));
    expect(imported['Other'].highlights).toEqual([]);

    const again = await runImport('/api/v1/imports/markdown', 'vault.zip', zip, beta.auth);
    expect(again.run.counts).toMatchObject({ created: 0, highlights_added: 0 });
    // Back into the tenant it came from: nothing new either.
    const home = await runImport('/api/v1/imports/markdown', 'vault.zip', zip);
    expect(home.run.counts.highlights_added).toBe(0);
    expect((await (await t.req('GET', `/api/v1/nodes/${id}/highlights`)).json()).data).toHaveLength(2);
  });

  it('the JSON export lists each node\'s highlights', async () => {
    const id = (await (await t.req('POST', '/api/v1/nodes', { title: 'Soil', content: 'Soil is alive.' })).json()).id;
    await t.req('POST', `/api/v1/nodes/${id}/highlights`, { text: 'alive', note: 'yes' });
    const doc = await (await t.req('GET', '/api/v1/exports/json')).json();
    expect(doc.nodes[0].highlights).toMatchObject([{ text: 'alive', note: 'yes', color: 'yellow' }]);
  });
});
