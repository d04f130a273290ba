// POST /ask with a model configured: a real HTTP server on loopback speaks the chat-completions
// protocol. The model's answer is kept when its citations check out; a wrong citation, no
// citation, a 500, a timeout and a stream cut in the middle all give the extractive answer
// with a notice. Only the numbered passages go in the prompt.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { createNode } from '../graph/helpers.js';
import { startChatServer, type ChatServer } from './chat-server.js';
import { readSse } from './sse.js';

let llm: ChatServer;
let t: TestApp;
let boiler: string;
beforeAll(async () => {
  llm = await startChatServer();
});
afterAll(() => llm.close());
beforeEach(async () => {
  t = await makeTestApp({ config: { llmUrl: llm.url, llmModel: 'test-model', llmKey: 'sk-test', llmTimeoutMs: 400 } });
  t.s.queue.start();
  boiler = await createNode(t, { title: 'Boiler maintenance', content: 'The boiler was serviced in October.\n\nThe pressure gauge should read between 1 and 1.5 bar when the system is cold. Top it up with the filling loop.' });
  await createNode(t, { title: 'Secret diary', content: 'My bank PIN is 4321 and nobody may know it.' });
  await t.s.queue.idle();
  llm.requests.length = 0;
});
afterEach(() => t.close());

const QUESTION = 'What pressure should the boiler gauge read?';

async function ask(body: Record<string, unknown> = {}) {
  const res = await t.req('POST', '/api/v1/ask', { question: QUESTION, ...body });
  expect(res.status).toBe(200);
  return res.json();
}

async function expectExtractiveFallback(notice: RegExp) {
  const a = await ask();
  expect(a.mode).toBe('extractive');
  expect(a.abstained).toBe(false);
  expect(a.notice).toMatch(notice);
  expect(a.answer).toContain('The pressure gauge should read between 1 and 1.5 bar when the system is cold. [1]');
  expect(a.citations[0].node_id).toBe(boiler);
  return a;
}

describe('POST /ask with a model', () => {
  it("keeps the model's answer when every [n] is a passage it was given; the prompt holds only those passages", async () => {
    llm.next = { kind: 'answer', text: 'Between 1 and 1.5 bar when cold [1].' };
    const a = await ask();
    expect(a).toMatchObject({ mode: 'generative', abstained: false, answer: 'Between 1 and 1.5 bar when cold [1].' });
    expect(a.notice).toBeUndefined();
    expect(a.citations[0]).toMatchObject({ node_id: boiler, title: 'Boiler maintenance' });
    expect(a.citations[0].passage).toContain('1.5 bar');

    expect(llm.requests).toHaveLength(1);
    const r = llm.requests[0];
    expect(r.headers.authorization).toBe('Bearer sk-test');
    expect(r.body).toMatchObject({ model: 'test-model', stream: true });
    expect(r.body.max_tokens).toBeGreaterThan(0);
    const prompt = r.body.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain(`[1] Boiler maintenance\n${a.citations[0].passage}`);
    expect(prompt).toContain(QUESTION);
    expect(prompt).not.toContain('4321'); // a note that does not answer never leaves the machine
    expect(a.citations).toHaveLength((prompt.match(/^\[\d+\] /gm) ?? []).length);
  });

  it('streams the model\'s answer as it is written', async () => {
    llm.next = { kind: 'answer', text: 'Between 1 and 1.5 bar when the system is cold [1].', pieces: 5 };
    const res = await t.app.request('/api/v1/ask', {
      method: 'POST',
      headers: { Authorization: `ApiKey ${t.key}`, 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify({ question: QUESTION }),
    });
    const events = await readSse(res);
    expect(events[0]).toMatchObject({ event: 'citations', data: { mode: 'generative' } });
    const deltas = events.filter((e) => e.event === 'delta');
    expect(deltas.length).toBeGreaterThanOrEqual(5);
    expect(deltas.map((e) => e.data.text).join('')).toBe('Between 1 and 1.5 bar when the system is cold [1].');
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { mode: 'generative' } });
  });

  it('accepts an endpoint that answers whole instead of streaming', async () => {
    llm.next = { kind: 'whole', text: 'From 1 to 1.5 bar [1].' };
    expect(await ask()).toMatchObject({ mode: 'generative', answer: 'From 1 to 1.5 bar [1].' });
  });

  it('replaces an answer citing a passage it was not given', async () => {
    llm.next = { kind: 'answer', text: 'About 2 bar [1][7].' };
    const a = await expectExtractiveFallback(/cited a passage it was not given \(\[7\]\)/);
    expect(a.answer).not.toContain('2 bar');
  });

  it('replaces an answer that cites nothing', async () => {
    llm.next = { kind: 'answer', text: 'About 2 bar, I think.' };
    await expectExtractiveFallback(/cited none of your notes/);
  });

  it('falls back on a 500 from the endpoint', async () => {
    llm.next = { kind: 'status', status: 500 };
    await expectExtractiveFallback(/HTTP 500/);
  });

  it('falls back when the model takes too long', async () => {
    llm.next = { kind: 'stall', afterText: 'Between' };
    const t0 = Date.now();
    await expectExtractiveFallback(/within 400 ms|sent nothing for 400 ms/);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('falls back when the stream is cut in the middle, and says so in the stream', async () => {
    llm.next = { kind: 'cut', text: 'Between 1 and 1.5 bar [1].' };
    await expectExtractiveFallback(/stopped/);
    llm.next = { kind: 'cut', text: 'Between 1 and 1.5 bar [1].' };
    const res = await t.app.request('/api/v1/ask', {
      method: 'POST',
      headers: { Authorization: `ApiKey ${t.key}`, 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify({ question: QUESTION }),
    });
    const events = await readSse(res);
    const kinds = events.map((e) => e.event);
    const fallback = kinds.indexOf('fallback');
    expect(fallback).toBeGreaterThan(0);
    expect(kinds.slice(fallback)).toEqual(['fallback', 'citations', ...kinds.slice(fallback + 2, -1).map(() => 'delta'), 'done']);
    expect(events[fallback + 1].data.mode).toBe('extractive');
    expect(events.at(-1)!.data).toMatchObject({ mode: 'extractive', notice: expect.stringMatching(/stopped/) });
  });

  it('never asks the model when told to stay extractive, or when the notes do not say', async () => {
    expect((await ask({ mode: 'extractive' })).mode).toBe('extractive');
    const none = await ask({ question: 'Who won the chess tournament in Reykjavik?' });
    expect(none.abstained).toBe(true);
    expect(llm.requests).toHaveLength(0);
  });
});

describe('the model budget and the SSRF rules', () => {
  it("falls back once a tenant's model tokens are spent", async () => {
    const small = await makeTestApp({ config: { llmUrl: llm.url, llmTokenBudget: 700, llmTimeoutMs: 400 } });
    small.s.queue.start();
    try {
      await createNode(small, { title: 'Boiler', content: 'The pressure gauge should read between 1 and 1.5 bar when the system is cold.' });
      await small.s.queue.idle();
      llm.next = { kind: 'answer', text: 'Between 1 and 1.5 bar [1].' };
      const first = await (await small.req('POST', '/api/v1/ask', { question: QUESTION })).json();
      expect(first.mode).toBe('generative');
      const second = await (await small.req('POST', '/api/v1/ask', { question: QUESTION })).json();
      expect(second).toMatchObject({ mode: 'extractive', notice: expect.stringMatching(/budget/) });
    } finally {
      await small.close();
    }
  });

  it('refuses a model endpoint on a private address unless private fetches are allowed', async () => {
    const priv = await makeTestApp({ config: { llmUrl: 'http://10.255.255.1:11434', llmTimeoutMs: 400 } });
    priv.s.queue.start();
    try {
      await createNode(priv, { title: 'Boiler', content: 'The pressure gauge should read between 1 and 1.5 bar when the system is cold.' });
      await priv.s.queue.idle();
      const a = await (await priv.req('POST', '/api/v1/ask', { question: QUESTION })).json();
      expect(a).toMatchObject({ mode: 'extractive', notice: expect.stringMatching(/private address/) });
    } finally {
      await priv.close();
    }
    // Allowed: it is tried (and, unreachable here, times out into the extractive answer).
    const allowed = await makeTestApp({ config: { llmUrl: 'http://10.255.255.1:11434', llmTimeoutMs: 300, allowPrivateFetch: true } });
    allowed.s.queue.start();
    try {
      await createNode(allowed, { title: 'Boiler', content: 'The pressure gauge should read between 1 and 1.5 bar when the system is cold.' });
      await allowed.s.queue.idle();
      const a = await (await allowed.req('POST', '/api/v1/ask', { question: QUESTION })).json();
      expect(a.mode).toBe('extractive');
      expect(a.notice).not.toMatch(/private address/);
    } finally {
      await allowed.close();
    }
  });
});
