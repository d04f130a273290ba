import { describe, expect, it } from 'vitest';
import { HashEmbedder } from '../../src/embed/hash-embedder.js';
import { extractSource } from '../../src/ingest/extract/index.js';
import { chatCompletionsUrl } from '../../src/ingest/llm.js';
import { detectContent, detectUpload, UnsupportedFile } from '../../src/ingest/sniff.js';
import { extractiveSummary } from '../../src/ingest/summarize.js';
import { keyphraseTags } from '../../src/ingest/tags.js';
import { articleHtml, makeDocx, makePdf, makePng, videoPageHtml } from '../fixtures/generate.js';

const enc = (s: string) => new TextEncoder().encode(s);
const user = {};

describe('type detection', () => {
  it('detects uploads by their bytes and checks the extension', async () => {
    expect((await detectUpload(await makePdf(), 'paper.pdf')).mime).toBe('application/pdf');
    expect((await detectUpload(makePng(), 'shot.PNG')).kind).toBe('image');
    expect((await detectUpload(await makeDocx(), 'notes.docx')).kind).toBe('docx');
    expect((await detectUpload(enc('just some words'), 'a.txt')).mime).toBe('text/plain');
    expect((await detectUpload(enc('# Title\n\n- one\n- two'), 'a.md')).mime).toBe('text/markdown');
    expect((await detectUpload(enc('# Title\n\n- one\n- [x](y)'), 'noext')).mime).toBe('text/markdown');
  });
  it('refuses a spoofed extension, a disallowed type and binary junk', async () => {
    await expect(detectUpload(makePng(), 'report.pdf')).rejects.toBeInstanceOf(UnsupportedFile);
    await expect(detectUpload(await makePdf(), 'photo.jpg')).rejects.toBeInstanceOf(UnsupportedFile);
    await expect(detectUpload(enc('hello'), 'evil.exe')).rejects.toBeInstanceOf(UnsupportedFile);
    await expect(detectUpload(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0, 0, 0, 1, 2, 3]), 'x.docx')).rejects.toBeInstanceOf(UnsupportedFile);
    await expect(detectUpload(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]), 'x.txt')).rejects.toBeInstanceOf(UnsupportedFile);
    await expect(detectUpload(Buffer.from([1, 2, 3, 0, 0, 255, 254]), 'x.txt')).rejects.toBeInstanceOf(UnsupportedFile);
  });
  it('sniffs fetched bodies', async () => {
    expect((await detectContent(enc(articleHtml())))?.kind).toBe('html');
    expect((await detectContent(await makePdf()))?.kind).toBe('pdf');
    expect((await detectContent(enc('plain words only')))?.kind).toBe('text');
  });
});

describe('extractors', () => {
  it('HTML: keeps the article, drops the boilerplate, resolves links', async () => {
    const x = await extractSource({ origin: 'url', kind: 'html', mime: 'text/html', bytes: enc(articleHtml()), finalUrl: 'https://garden.example/posts/compost' }, { flavor: 'article', user });
    expect(x.title).toBe('How Compost Feeds a Garden');
    expect(x.markdown).toContain('Humus holds water like a sponge');
    expect(x.markdown).not.toMatch(/Subscribe to our newsletter|Copyright 2026|Why cats knock|analytics/);
    expect(x.markdown).toContain('(https://garden.example/guides/worms)');
    expect(x.metadata).toMatchObject({ site_name: 'Example Garden Blog', author: 'Alex Gardener', readable: true });
    expect(x.metadata.word_count).toBeGreaterThan(60);
    expect(x.extractor).toMatch(/^@mozilla\/readability@\d/);
  });
  it('HTML video page: the description and duration', async () => {
    const x = await extractSource({ origin: 'url', kind: 'html', mime: 'text/html', bytes: enc(videoPageHtml()) }, { flavor: 'video', user });
    expect(x.title).toBe('Pruning Apple Trees in Winter');
    expect(x.markdown).toContain('prune apple trees in winter');
    expect(x.metadata.duration_seconds).toBe('754');
  });
  it('PDF: pages joined cleanly, page count and title', async () => {
    const x = await extractSource({ origin: 'upload', kind: 'pdf', mime: 'application/pdf', bytes: await makePdf() }, { flavor: 'other', user });
    expect(x.markdown).toMatch(/Mycorrhizal networks connect the roots[\s\S]*\n\nOlder trees share carbon/);
    expect(x.markdown).not.toMatch(/-- 1 of 2 --/);
    expect(x.metadata).toMatchObject({ page_count: 2, author: 'Test Author' });
    expect(x.title).toBe('Forest Networks');
  });
  it('DOCX: structure as markdown', async () => {
    const x = await extractSource({ origin: 'upload', kind: 'docx', mime: 'x', bytes: await makeDocx() }, { flavor: 'other', user });
    expect(x.markdown).toMatch(/^# Sourdough Baking Notes/);
    expect(x.markdown).toContain('**Feed the starter**');
    expect(x.title).toBe('Sourdough Baking Notes');
  });
  it('image: dimensions and format, plus the user text', async () => {
    const x = await extractSource({ origin: 'upload', kind: 'image', mime: 'image/png', bytes: makePng(4, 3) }, { flavor: 'other', user: { selectedText: 'a rusty sunset' } });
    expect(x.metadata).toMatchObject({ width: 4, height: 3, format: 'png' });
    expect(x.markdown).toContain('4×3 px');
    expect(x.markdown).toContain('a rusty sunset');
  });
  it('audio/video without transcript: metadata and the user text', async () => {
    const x = await extractSource({ origin: 'url', kind: 'audio', mime: 'audio/mpeg', bytes: new Uint8Array(), declaredBytes: 5000 }, { flavor: 'audio', user: { selectedText: 'episode on soil' } });
    expect(x.markdown).toMatch(/Audio \(audio\/mpeg, 5000 bytes\)/);
    expect(x.markdown).toContain('episode on soil');
  });
});

describe('summary and tags', () => {
  const text = [
    'Compost turns kitchen scraps into rich soil.',
    'Gardeners add compost to beds every autumn.',
    'The weather was nice on Tuesday.',
    'Compost feeds soil organisms that feed plants.',
    'Soil with compost holds water during drought.',
  ].join(' ');
  it('extractive summary picks sentences of the text, in order', async () => {
    const r = await extractiveSummary(text, new HashEmbedder(), 2);
    expect(r.picked).toHaveLength(2);
    expect(r.picked[0]).toBeLessThan(r.picked[1]);
    for (const s of r.summary.split(/(?<=\.) /)) expect(text).toContain(s);
  });
  it('short texts are their own summary', async () => {
    expect((await extractiveSummary('Only one sentence here.', new HashEmbedder())).summary).toBe('Only one sentence here.');
  });

  it('asks for its sentence vectors as a waiting request, in one call (not as background work held behind searches)', async () => {
    const calls: { n: number; priority: string | undefined }[] = [];
    const inner = new HashEmbedder();
    const recording = { modelId: inner.modelId, dimension: inner.dimension, close: () => inner.close(), embed: (texts: string[], priority?: 'query' | 'background') => (calls.push({ n: texts.length, priority }), inner.embed(texts)) };
    const text = Array.from({ length: 20 }, (_, i) => `Sentence number ${i} talks about soil, carbon and forests in some detail.`).join(' ');
    await extractiveSummary(text, recording, 2);
    expect(calls).toEqual([{ n: 20, priority: 'query' }]);
  });
  it('reuses existing tags before inventing new ones', () => {
    const r = keyphraseTags({ title: 'Compost basics', text: `${text} Machine learning is unrelated. Soil health matters; soil health is everything.`, existing: ['soil-health', 'gardening', 'machine-learning'] });
    expect(r.reused).toEqual(['soil-health', 'machine-learning']);
    expect(r.tags.slice(0, 2)).toEqual(['soil-health', 'machine-learning']);
    expect(r.tags).toContain('compost');
    expect(r.tags).not.toContain('gardening');
    expect(r.tags.length).toBeLessThanOrEqual(5);
  });
  it('builds the chat completions URL from a base', () => {
    expect(chatCompletionsUrl('http://127.0.0.1:11434')).toBe('http://127.0.0.1:11434/v1/chat/completions');
    expect(chatCompletionsUrl('http://h/v1/')).toBe('http://h/v1/chat/completions');
  });
});
