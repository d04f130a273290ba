// POST /ask, extractive (no model configured): the sentences that answer, each with a
// citation whose offsets point into the note; filters; abstention; streaming; tenants.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';
import { createNode } from '../graph/helpers.js';
import { readSse } from './sse.js';
import { loadConfig } from '../../src/config.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
  await t.s.queue.start();
});
afterEach(() => t.close());

type Citation = { node_id: string; title: string; passage: string; start: number; end: number; field: string; score: number };
type Answer = { answer: string; citations: Citation[]; mode: string; abstained: boolean; sentences: Array<{ text: string; citation: number; start: number; end: number }>; maybe_related: Array<{ node_id: string; title: string }>; notice?: string };

async function ask(body: unknown, auth?: string): Promise<Answer> {
  const res = await t.req('POST', '/api/v1/ask', body, auth);
  const out = await res.json();
  if (res.status !== 200) throw new Error(JSON.stringify(out));
  return out;
}

async function body(id: string): Promise<string> {
  return (await (await t.req('GET', `/api/v1/nodes/${id}`)).json()).body_markdown;
}

const BOILER = [
  'The boiler was serviced in October by a technician from the gas company.',
  'The pressure gauge should read between 1 and 1.5 bar when the system is cold.',
  'If the pressure drops below 1 bar, top it up with the filling loop under the boiler.',
].join(' ');

async function seed() {
  const boiler = await createNode(t, { title: 'Boiler maintenance', content: `# Boiler\n\n${BOILER}\n\nThe warranty runs until 2027.`, tags: ['home'] });
  const bread = await createNode(t, { title: 'Sourdough notes', content: 'Feed the starter twice a day with equal weights of flour and water. The loaf bakes at 230 degrees for 40 minutes.', tags: ['kitchen'] });
  const bike = await createNode(t, { title: 'Bike tyres', content: 'Road tyres run at 6 to 7 bar; the gravel tyres at 2.5 bar.', tags: ['bike'] });
  await t.s.queue.idle();
  return { boiler, bread, bike };
}

describe('POST /ask (extractive)', () => {
  it("carries the owner's highlights inside a cited passage, with their notes", async () => {
    const { boiler } = await seed();
    const made = await t.req('POST', `/api/v1/nodes/${boiler}/highlights`, { text: 'between 1 and 1.5 bar when the system is cold', note: 'check it every autumn' });
    expect(made.status).toBe(201);
    const h = (await made.json()) as { id: string };
    const a = await ask({ question: 'What pressure should the boiler gauge read?' });
    const cited = a.citations.find((c) => c.node_id === boiler) as Citation & { highlights?: Array<{ id: string; text: string; note: string | null }> };
    expect(cited.highlights).toEqual([{ id: h.id, text: 'between 1 and 1.5 bar when the system is cold', note: 'check it every autumn' }]);
    // A note without highlights carries none.
    const other = await ask({ question: 'How long does the loaf bake?' });
    expect(other.citations.every((c) => !('highlights' in c))).toBe(true);
  });


  it('answers with the sentence that says it, cited to the passage it stands in', async () => {
    const { boiler } = await seed();
    const a = await ask({ question: 'What pressure should the boiler gauge read?' });
    expect(a.mode).toBe('extractive');
    expect(a.abstained).toBe(false);
    expect(a.citations[0].node_id).toBe(boiler);
    expect(a.answer).toContain('The pressure gauge should read between 1 and 1.5 bar when the system is cold. [1]');
    const text = await body(boiler);
    for (const c of a.citations) if (c.node_id === boiler) expect(text.slice(c.start, c.end)).toBe(c.passage);
    for (const s of a.sentences) {
      const c = a.citations[s.citation - 1];
      expect(s.start).toBeGreaterThanOrEqual(c.start);
      expect(s.end).toBeLessThanOrEqual(c.end);
      expect((await body(c.node_id)).slice(s.start, s.end)).toBe(s.text);
    }
    expect(a.citations[0]).toMatchObject({ title: 'Boiler maintenance', field: 'body' });
    expect(a.citations[0].score).toBeGreaterThan(0);
  });

  it('keeps to the filters: tag, PARA item and date range', async () => {
    const { bike } = await seed();
    const byTag = await ask({ question: 'What pressure should the tyres be at?', filters: { tags: ['bike'] } });
    expect(byTag.citations.map((c) => c.node_id)).toEqual([bike]);
    expect((await ask({ question: 'What pressure should the boiler gauge read?', filters: { tags: ['bike'] } })).citations.every((c) => c.node_id === bike)).toBe(true);

    const area = (await (await t.req('POST', '/api/v1/para', { category: 'areas', label: 'House' })).json()).id;
    const garage = await createNode(t, { title: 'Garage door', content: 'The garage door spring tension was adjusted in May.', para_item_ids: [area] });
    await t.s.queue.idle();
    const inArea = await ask({ question: 'garage door spring tension', filters: { para_item_id: area } });
    expect(inArea.citations.map((c) => c.node_id)).toEqual([garage]);
    const boilerInArea = await ask({ question: 'What pressure should the boiler gauge read?', filters: { para_item_id: area } });
    expect(boilerInArea.abstained).toBe(true);

    const old = await createNode(t, { title: 'Old boiler', content: 'The old boiler pressure gauge read 2 bar.', occurred_at: '2019-03-01' });
    await t.s.queue.idle();
    const dated = await ask({ question: 'What did the old boiler pressure gauge read?', filters: { occurred_before: '2020-01-01' } });
    expect(dated.citations.map((c) => c.node_id)).toEqual([old]);
    const later = await ask({ question: 'What did the old boiler pressure gauge read?', filters: { occurred_after: '2020-01-01' } });
    expect(later.citations.map((c) => c.node_id)).not.toContain(old);
  });

  it('puts the notes of a period said in the question first ("last May", "in 2022"), as POST /context does', async () => {
    const now = new Date(t.clock.now());
    const lastMay = now.getUTCMonth() > 4 ? now.getUTCFullYear() : now.getUTCFullYear() - 1;
    // The better keyword match is from another year: without the date it would be cited first.
    const older = await createNode(t, { title: 'Roof repairs', content: 'We decided to patch the roof with tar. The roof would last another winter, we decided, and the roof gutter too.', occurred_at: '2023-09-01' });
    const may = await createNode(t, { title: 'Slates', content: 'We decided to replace the slates of the roof on the north side.', occurred_at: `${lastMay}-05-14` });
    const y2022 = await createNode(t, { title: 'Chimney', content: 'We decided the roof chimney needs a new cowl.', occurred_at: '2022-03-10' });
    await t.s.queue.idle();
    expect((await ask({ question: 'what did we decide about the roof' })).citations[0].node_id).toBe(older);
    const a = await ask({ question: 'what did we decide about the roof last May' });
    expect(a.abstained).toBe(false);
    expect(a.citations[0].node_id).toBe(may);
    expect(a.answer.startsWith('We decided to replace the slates')).toBe(true);
    // An order, not a filter: a note from another time still answers what the period's notes do not say.
    expect((await ask({ question: 'what did we decide about the gutter last May' })).citations[0]?.node_id).toBe(older);
    expect((await ask({ question: 'what did we decide about the roof in 2022' })).citations[0].node_id).toBe(y2022);
    // Dates given as filters restrict, and a date in the question does not widen them.
    const filtered = await ask({ question: 'what did we decide about the roof in 2022', filters: { occurred_after: '2023-01-01', occurred_before: '2024-01-01' } });
    expect(new Set(filtered.citations.map((c) => c.node_id))).toEqual(new Set([older]));
  });

  it("abstains when the notes don't say, offering the nearest notes as maybe related, never as citations", async () => {
    await seed();
    const a = await ask({ question: 'Who won the chess tournament in Reykjavik?' });
    expect(a).toMatchObject({ answer: "Your notes don't say.", abstained: true, citations: [], sentences: [] });
    expect(a.maybe_related.length).toBeGreaterThan(0);
    expect(a.maybe_related.length).toBeLessThanOrEqual(3);
  });

  it('streams the answer as server-sent events when asked to', async () => {
    const { boiler } = await seed();
    const res = await t.app.request('/api/v1/ask', {
      method: 'POST',
      headers: { Authorization: `ApiKey ${t.key}`, 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify({ question: 'What pressure should the boiler gauge read?' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = await readSse(res);
    expect(events[0].event).toBe('citations');
    expect(events[0].data.citations[0].node_id).toBe(boiler);
    const deltas = events.filter((e) => e.event === 'delta').map((e) => e.data.text).join('');
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    expect(deltas).toBe(done.data.answer);
    expect(done.data).toMatchObject({ mode: 'extractive', abstained: false });
  });

  it("answers from the asking tenant's notes only", async () => {
    await seed();
    const other = await t.tenant('beta');
    const a = await ask({ question: 'What pressure should the boiler gauge read?' }, other.auth);
    expect(a.abstained).toBe(true);
    expect(a.maybe_related).toEqual([]);
  });

  it('refuses bad input with a 400 and no answer', async () => {
    await expectProblem(await t.req('POST', '/api/v1/ask', { question: '   ' }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/ask', {}), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/ask', { question: 'x', filters: { occurred_after: 'yesterday' } }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/ask', { question: 'x', extra: 1 }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/ask', { question: 'x'.repeat(2001) }), 400, 'validation_failed');
  });

  it("counts against the tenant's budget of expensive requests", async () => {
    const limited = await makeTestApp({ config: { limits: { ...loadConfig({}).limits, tenantBudgetPerMinute: 2 } } });
    try {
      const other = await limited.tenant('beta');
      for (let i = 0; i < 2; i++) expect((await limited.req('POST', '/api/v1/ask', { question: 'boiler pressure' })).status).toBe(200);
      await expectProblem(await limited.req('POST', '/api/v1/ask', { question: 'boiler pressure' }), 429, 'rate_limited');
      expect((await limited.req('POST', '/api/v1/ask', { question: 'boiler pressure' }, other.auth)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
