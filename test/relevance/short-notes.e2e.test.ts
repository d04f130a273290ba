// The semantic side over short notes, with the bundled model: a tenant of chat turns (the
// shape of an agent's memory) answers an in-domain question by meaning, and still nothing
// for a question about something it does not hold; link suggestions follow the same gate.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerEmbedder } from '../../src/embed/worker-embedder.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { loadNotebook, search } from './helpers.js';

const CHAT = [
  'How has your week been?', 'That sounds wonderful, I am so happy for you!', 'Ugh, work has been relentless lately.', 'I made soup again, the weather called for it.',
  'Did you end up watching that show I told you about?', 'My neighbour is renovating and the drilling starts at seven.', 'We should catch up properly over coffee soon.',
  'I have been trying to sleep earlier, with mixed results.', 'The garden is finally coming back to life.', 'I keep meaning to call my parents more often.',
  'That made me laugh out loud on the bus.', 'Any plans for the weekend?', 'I cleaned out the closet and found my old diaries.', 'Send me pictures!',
  'I know what you mean, it is a lot.', 'Fingers crossed for you.', 'Let me know how it goes.', 'Traffic this morning was a nightmare.',
  'My phone screen cracked again.', 'I started journaling a bit in the mornings.', 'Thanks for listening, really.', 'I need a holiday, honestly.',
  'Our car made a strange noise, the mechanic shrugged.', 'The city feels different in spring.', 'Books are my escape these days.',
  'I tried a new recipe and it was edible, barely.', 'Some friends of ours moved away last year and we miss them.', 'How is your family doing?',
];
const FACTS = {
  pet: 'Big news on my end, we finally brought home a beagle from the shelter on Saturday. We are calling it Biscuit.',
  injury: 'I am typing one-handed, I broke my wrist after tripping over the dog at the top of the stairs.',
  job: 'I signed the offer today! Starting next month as a pastry chef at Blue Fern Bakery.',
};

let t: TestApp;
let embedder: WorkerEmbedder;
const factIds = new Map<string, string>();
let notebook: { auth: string; ids: Map<string, string> };
beforeAll(async () => {
  embedder = new WorkerEmbedder({ model: 'use-lite', cacheDir: mkdtempSync(join(tmpdir(), 'rz-model-')) });
  t = await makeTestApp({ embedder });
  await t.s.queue.start();
  const turns = [...CHAT, ...CHAT.map((c) => c.replace(/\.$/, ' again.')), ...Object.values(FACTS)];
  const r = await (await t.req('POST', '/api/v1/nodes/batch', { nodes: turns.map((text, i) => ({ title: i % 2 ? 'Jonah' : 'Maya', content: text })) })).json();
  for (const [k, text] of Object.entries(FACTS)) factIds.set(k, r.results.find((n: { body_markdown: string }) => n.body_markdown === text).id);
  const other = await t.tenant('notebook');
  notebook = { auth: other.auth, ids: await loadNotebook(t, other.auth) };
  await t.s.queue.idle();
}, 180_000);
afterAll(async () => {
  await t.close();
  await embedder.close();
});

describe('the semantic side over short notes', () => {
  it('answers in-domain questions by meaning', async () => {
    for (const [q, fact] of [
      ['Which dog did they bring home from the shelter, and its name?', 'pet'],
      ['Who broke their wrist tripping on the stairs?', 'injury'],
      ['Who signed an offer to work as a pastry chef?', 'job'],
    ] as const) {
      const r = await search(t, q, 'semantic');
      expect(r.data.length, q).toBeGreaterThan(0);
      expect(r.data.slice(0, 5).map((n) => n.id), q).toContain(factIds.get(fact));
    }
  });

  it('still says nothing by meaning for questions about what the notes do not hold', async () => {
    for (const q of ['quantum chromodynamics gluon confinement', 'medieval heraldry and coats of arms', 'kernel module signing with secure boot']) {
      expect((await search(t, q, 'semantic')).data, q).toEqual([]);
    }
  });

  it('suggests no link drawn by meaning alone where search would abstain', async () => {
    const res = await t.req('GET', `/api/v1/links/suggestions?text=${encodeURIComponent('Index funds: a low-cost global tracker fund bought monthly')}`, undefined, notebook.auth);
    const titles = (await res.json()).suggestions.map((s: { node_id: string }) => [...notebook.ids].find(([, id]) => id === s.node_id)?.[0]);
    expect(titles[0]).toBe('Index funds');
    expect(titles).not.toContain('Compost heap');
    expect(titles).not.toContain('Git branching');
  });
});
