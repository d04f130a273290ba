// The OCR module on images rendered by Chromium (and two committed fixtures): the words
// come back, and the guards hold (pixel cap before decoding, timeout, corrupt input).
import { readFileSync } from 'node:fs';
import { imageSize } from 'image-size';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderOcrSamples } from '../../bench/eval/ocr.js';
import { extractSource } from '../../src/ingest/extract/index.js';
import { closeOcr, configureOcr, recognizeImage } from '../../src/ingest/ocr/index.js';
import { DEFAULT_OCR_LIMITS } from '../../src/ingest/ocr/limits.js';
import { makePng } from '../fixtures/generate.js';
import { hugePng } from './ocr-helpers.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/ocr/${name}`, import.meta.url));
const ocr = (bytes: Uint8Array) => recognizeImage(bytes, imageSize(bytes));
const image = (bytes: Uint8Array) => extractSource({ origin: 'upload', kind: 'image', mime: 'image/png', bytes }, { flavor: 'other', user: {} });

let shots: Map<string, Buffer>;
beforeAll(async () => {
  shots = await renderOcrSamples([
    { name: 'invoice', style: 'clean', font: 'Liberation Sans', px: 16, lines: ['Invoice from Zephyrine Plumbing', 'Total due: 482 euros by 14 March'] },
    { name: 'dark', style: 'dark', font: 'DejaVu Sans', px: 15, lines: ['Terminal theme saved: midnight aubergine'] },
    { name: 'photo', style: 'photo', font: 'DejaVu Sans', px: 22, lines: ['Whiteboard: migrate the lighthouse database on Thursday'] },
  ]);
});
afterEach(() => configureOcr({ ...DEFAULT_OCR_LIMITS }));
afterAll(() => closeOcr());

describe('OCR reads text', () => {
  it('a PNG screenshot: its words, line by line, with the model and its confidence', async () => {
    const r = await ocr(shots.get('invoice')!);
    expect(r).toMatchObject({ status: 'ok', model: expect.stringMatching(/^tesseract\.js@\d+\.\d+\.\d+\+eng:4\.0\.0_best_int$/), lines: 2 });
    if (r.status !== 'ok') throw new Error(r.detail);
    expect(r.text).toContain('Invoice from Zephyrine Plumbing');
    expect(r.text).toContain('482 euros');
    expect(r.text.split('\n')).toHaveLength(2);
    expect(r.confidence).toBeGreaterThan(0.8);
    expect(r.confidence).toBeLessThanOrEqual(1);
  });

  it('a dark-mode screenshot and a noisy photo (JPEG)', async () => {
    const dark = await ocr(shots.get('dark')!);
    expect(dark.status === 'ok' && dark.text).toContain('midnight aubergine');
    const photo = shots.get('photo')!;
    expect(imageSize(photo).type).toBe('jpg');
    const p = await ocr(photo);
    expect(p.status === 'ok' && p.text).toMatch(/lighthouse database/);
  });

  it('WebP, and only the first frame of an animated GIF', async () => {
    const webp = await ocr(fixture('grocery.webp'));
    expect(webp.status === 'ok' && webp.text).toContain('lentils, saffron');
    const gif = await ocr(fixture('grocery-animated.gif'));
    expect(gif.status).toBe('ok');
    expect(gif.status === 'ok' && gif.text).toContain('saffron');
    expect(gif.status === 'ok' && gif.text).not.toMatch(/nobody/i);
  });

  it('the extracted markdown is the recognised text; provenance names the OCR model', async () => {
    const x = await image(shots.get('invoice')!);
    expect(x.extractor).toMatch(/^image-ocr:tesseract\.js@/);
    expect(x.markdown).toMatch(/^Image \(PNG, \d+×\d+ px\), text recognised by OCR:\n\nInvoice from Zephyrine Plumbing\nTotal due: 482 euros/);
    expect(x.metadata.ocr).toMatchObject({ status: 'ok', lines: 2, confidence: expect.any(Number), ms: expect.any(Number) });
    expect(x.metadata.word_count).toBeGreaterThanOrEqual(10);
  });
});

describe('OCR guards', () => {
  it('a 20,000 × 20,000 PNG is refused from its header, without decoding', async () => {
    const png = hugePng(20_000, 20_000);
    expect(png.length).toBeLessThan(200_000); // 400 M real pixels, cheaply compressed
    const rss = process.memoryUsage().rss;
    const r = await ocr(png);
    expect(r).toMatchObject({ status: 'too_large', ms: 0 });
    expect(r.status !== 'ok' && r.detail).toMatch(/20000×20000 px is 400\.0 MP, above the 40 MP OCR limit/);
    const x = await image(png);
    expect(x.markdown).toBe('Image (PNG, 20000×20000 px).');
    expect(x.extractor).toMatch(/^image-size@/);
    expect(x.metadata.ocr).toMatchObject({ status: 'too_large', confidence: null, lines: 0 });
    expect(process.memoryUsage().rss - rss).toBeLessThan(100e6);
  });

  it('an image too small to hold text, or with an unreadable header, is not sent to the model', async () => {
    expect(await ocr(makePng(4, 3))).toMatchObject({ status: 'too_small', ms: 0 });
    expect(await recognizeImage(new Uint8Array([1, 2, 3]), {})).toMatchObject({ status: 'unreadable' });
  });

  it('a timeout kills the worker: the capture keeps its placeholder, the next image reads again', async () => {
    await ocr(shots.get('dark')!); // the worker is warm: the timeout hits recognition itself
    configureOcr({ timeoutMs: 5 });
    const r = await ocr(shots.get('invoice')!);
    expect(r).toMatchObject({ status: 'timed_out', detail: 'OCR took longer than 5 ms' });
    const x = await image(shots.get('invoice')!);
    expect(x.markdown).toMatch(/^Image \(PNG, \d+×\d+ px\)\.$/);
    expect(x.extractor).toMatch(/^image-size@/);
    expect(x.metadata.ocr).toMatchObject({ status: 'timed_out', lines: 0 });
    configureOcr({ timeoutMs: DEFAULT_OCR_LIMITS.timeoutMs });
    const again = await ocr(shots.get('invoice')!);
    expect(again.status === 'ok' && again.text).toContain('Zephyrine');
  });

  it('a corrupt image fails OCR without taking the process down', async () => {
    const good = shots.get('invoice')!;
    const cut = good.subarray(0, Math.floor(good.length / 3));
    const r = await ocr(cut);
    expect(r).toMatchObject({ status: 'failed', detail: expect.stringMatching(/read image/) });
    const garbage = Buffer.concat([good.subarray(0, 33), Buffer.alloc(2000, 0x5a)]);
    expect(await ocr(garbage)).toMatchObject({ status: 'failed' });
    const x = await image(cut);
    expect(x.markdown).toMatch(/^Image \(PNG, \d+×\d+ px\)\.$/);
    expect(x.metadata.ocr).toMatchObject({ status: 'failed' });
    const again = await ocr(good);
    expect(again.status === 'ok' && again.text).toContain('Zephyrine');
  });
});
