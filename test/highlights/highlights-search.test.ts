// Search and context lead to a highlight: a hit whose words are in a highlight's text or its
// note carries that highlight, and a note's words find the node.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(() => t.close());

const body = 'Soil is alive. Compost feeds the soil and the soil feeds the plants. Mulch keeps the soil moist through summer.';

async function setup() {
  const id = (await (await t.req('POST', '/api/v1/nodes', { title: 'Soil notes', content: body })).json()).id as string;
  await t.req('POST', '/api/v1/nodes', { title: 'Kitchen', content: 'Bread wants a hot oven and patience.' });
  const hl = await (await t.req('POST', `/api/v1/nodes/${id}/highlights`, { text: 'Compost feeds the soil', note: 'Worms turn kitchen peelings into nitrogen' })).json();
  return { id, hl: hl.id as string };
}

interface Hit {
  id: string;
  annotation_matches?: { highlight_id: string; text: string; note: string | null; text_matches: [number, number][]; note_matches: [number, number][] }[];
}
const search = async (q: string, mode = 'keyword') => (await (await t.req('GET', `/api/v1/nodes?query=${encodeURIComponent(q)}&mode=${mode}`)).json()).data as Hit[];

describe('a search hit on a highlight leads to it', () => {
  it("finds a node by its highlight's note, and the hit carries the highlight with the words marked", async () => {
    const { id, hl } = await setup();
    for (const mode of ['keyword', 'hybrid']) {
      const hits = await search('nitrogen', mode);
      expect(hits.map((h) => h.id)).toEqual([id]);
      const note = 'Worms turn kitchen peelings into nitrogen';
      expect(hits[0].annotation_matches).toEqual([
        { highlight_id: hl, text: 'Compost feeds the soil', note, text_matches: [], note_matches: [[note.indexOf('nitrogen'), note.length]] },
      ]);
    }
  });

  it("carries the highlight when the words matched are in the highlighted text, and nothing when they are elsewhere", async () => {
    const { id, hl } = await setup();
    const [hit] = await search('compost');
    expect(hit.id).toBe(id);
    expect(hit.annotation_matches).toEqual([expect.objectContaining({ highlight_id: hl, text_matches: [[0, 7]], note_matches: [] })]);
    const [other] = await search('mulch');
    expect(other.id).toBe(id);
    expect(other.annotation_matches).toBeUndefined();
  });

  it('follows the note as it changes and goes, and keeps it through an edit of the node', async () => {
    const { id, hl } = await setup();
    // Searched once, the note's words are kept in memory; the edit of the node is then laid
    // over them with the node's words as indexed, its highlights' notes included.
    expect((await search('nitrogen')).map((h) => h.id)).toEqual([id]);
    await t.req('PATCH', `/api/v1/nodes/${id}`, { content: `# Garden\n\n${body}` });
    expect((await search('nitrogen')).map((h) => h.id)).toEqual([id]);
    await t.req('PATCH', `/api/v1/nodes/${id}/highlights/${hl}`, { note: 'Earthworms love it' });
    expect(await search('nitrogen')).toEqual([]);
    expect((await search('earthworms')).map((h) => h.id)).toEqual([id]);
    expect((await t.req('DELETE', `/api/v1/nodes/${id}/highlights/${hl}`)).status).toBe(204);
    expect(await search('earthworms')).toEqual([]);
    expect((await search('compost')).map((h) => h.id)).toEqual([id]);
  });

  it('POST /context: a node found by a highlight carries it too', async () => {
    const { id, hl } = await setup();
    const res = await (await t.req('POST', '/api/v1/context', { query: 'nitrogen', mode: 'keyword' })).json();
    const n = res.nodes.find((x: { id: string }) => x.id === id);
    expect(n.annotation_matches).toEqual([expect.objectContaining({ highlight_id: hl, note_matches: [[33, 41]] })]);
  });

  it("another tenant's query never meets the tenant's notes", async () => {
    await setup();
    const other = (await t.tenant('other')).auth;
    const res = await (await t.req('GET', '/api/v1/nodes?query=nitrogen&mode=keyword', undefined, other)).json();
    expect(res.data).toEqual([]);
  });
});
