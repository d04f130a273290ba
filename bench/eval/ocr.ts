// OCR accuracy: known English text rendered to images by headless Chromium (several fonts
// and sizes, a dark-mode screenshot, a photo-like noisy JPEG), read back by the OCR module,
// scored by character error rate: CER = Levenshtein(recognised, reference) / reference
// length, both with whitespace runs collapsed to one space (line breaks are layout, not text).
import { execFileSync } from 'node:child_process';
import { distance } from 'fastest-levenshtein';
import { imageSize } from 'image-size';
import { chromium, type Page } from 'playwright-core';
import { recognizeImage } from '../../src/ingest/ocr/index.js';

export interface OcrSample {
  name: string;
  style: 'clean' | 'dark' | 'photo';
  font: string;
  px: number;
  lines: string[];
  /** Wrap each line as a paragraph this many pixels wide (a page), instead of one row each. */
  wrap?: number;
  /** A navigation column to the left of the text, read first (the reference lists it first). */
  sidebar?: string[];
}

/** The text a perfect reader would return, in reading order. */
export const referenceText = (s: OcrSample) => [...(s.sidebar ?? []), ...s.lines].join('\n');

export const OCR_SAMPLES: OcrSample[] = [
  { name: 'sans-14', style: 'clean', font: 'DejaVu Sans', px: 14, lines: ['Meeting notes: the offline search feature ships in the next release.', 'Anna writes the migration guide; Tom checks the backup retention rules.', 'Open questions remain about pricing for small teams.'] },
  { name: 'serif-18', style: 'clean', font: 'Liberation Serif', px: 18, lines: ['Quarterly revenue grew 14% to $2.3 million in March 2024.', 'Costs fell slightly, while the customer base doubled in Europe.'] },
  { name: 'mono-13', style: 'clean', font: 'DejaVu Sans Mono', px: 13, lines: ['$ npm run build && node dist/server.js --port 7777', 'error: connection refused (ECONNREFUSED) at 127.0.0.1:5432', 'hint: start PostgreSQL first, then retry the migration.'] },
  { name: 'sans-28', style: 'clean', font: 'Liberation Sans', px: 28, lines: ['Whiteboard: goals for the spring sprint', 'Faster imports and a simpler settings page'] },
  { name: 'sans-12', style: 'clean', font: 'Liberation Sans', px: 12, lines: ['Please email support@example.com before Friday, 5 pm, with your invoice number.', 'Shipping takes three to five working days within the country.'] },
  { name: 'narrow-16', style: 'clean', font: 'Liberation Sans Narrow', px: 16, lines: ['The quick brown fox jumps over the lazy dog near the riverbank.', 'Pack my box with five dozen liquor jugs, said the old sailor.'] },
  { name: 'page-16', style: 'clean', font: 'Liberation Serif', px: 16, wrap: 900, lines: ['Getting started with local-first notes', 'Rhizome keeps every note, bookmark and highlight in one file on your own computer. Nothing leaves the machine unless you export it, and search works without a network connection.', 'To capture a page, press the toolbar button or send the address from the command line. The page is fetched, cleaned of menus and adverts, summarised and tagged within a few seconds.'] },
  { name: 'sidebar-13', style: 'clean', font: 'DejaVu Sans', px: 13, sidebar: ['Inbox', 'Drafts', 'Sent mail', 'Archive'], lines: ['Roadmap review, 3 June', 'We agreed to ship the offline search feature in the next release.', 'Open questions: pricing for teams and the mobile app.'] },
  { name: 'dark-15', style: 'dark', font: 'DejaVu Sans', px: 15, lines: ['Dark mode: settings saved at 10:42 on Tuesday.', 'Your reading list has 37 articles, 12 of them unread.'] },
  { name: 'photo-22', style: 'photo', font: 'DejaVu Sans', px: 22, lines: ['Remember to water the tomato plants every morning.', 'The library closes early on public holidays.', 'Call the plumber about the leaking kitchen tap.'] },
];

export function chromiumPath(): string {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      const p = execFileSync('which', [name], { encoding: 'utf8' }).trim();
      if (p) return p;
    } catch {
      /* try the next name */
    }
  }
  throw new Error('Chromium is not installed (apt-get install chromium): the OCR samples are rendered with it');
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

async function renderScreenshot(page: Page, s: OcrSample): Promise<Buffer> {
  const [fg, bg] = s.style === 'dark' ? ['#e3e3e3', '#1e1f22'] : ['#222', '#fff'];
  const row = (l: string) => `<div style="white-space:${s.wrap ? 'normal' : 'pre'};margin:0 0 ${Math.round(s.px * 0.6)}px">${escapeHtml(l)}</div>`;
  const text = `<div style="${s.wrap ? `width:${s.wrap}px` : ''}">${s.lines.map(row).join('')}</div>`;
  const side = s.sidebar ? `<div style="width:150px;flex:none">${s.sidebar.map(row).join('')}</div>` : '';
  await page.setContent(`<body style="margin:0;background:${bg}"><div id="shot" style="display:inline-flex;gap:40px;padding:18px 22px;background:${bg};color:${fg};font:${s.px}px '${s.font}'">${side}${text}</div></body>`);
  return page.locator('#shot').screenshot({ type: 'png' });
}

/** A phone photo of a printed note: warm gradient, slight rotation, grain, blur, JPEG. */
async function renderPhoto(page: Page, s: OcrSample): Promise<Buffer> {
  const width = 860;
  const height = 70 + s.lines.length * s.px * 2.2;
  await page.setContent(`<body style="margin:0"><canvas id="shot" width="${width}" height="${height}"></canvas><script>
    const c = document.getElementById('shot').getContext('2d');
    let seed = 7; const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const g = c.createLinearGradient(0, 0, ${width}, ${height});
    g.addColorStop(0, '#e8e2d6'); g.addColorStop(1, '#a59c8c');
    c.fillStyle = g; c.fillRect(0, 0, ${width}, ${height});
    c.save(); c.translate(30, 50); c.rotate(-0.02); c.fillStyle = '#2b2a33'; c.font = "${s.px}px '${s.font}'";
    ${JSON.stringify(s.lines)}.forEach((l, i) => c.fillText(l, 0, i * ${s.px * 2.2}));
    c.restore();
    const d = c.getImageData(0, 0, ${width}, ${height});
    for (let i = 0; i < d.data.length; i += 4) { const n = (rnd() - 0.5) * 70; d.data[i] += n; d.data[i + 1] += n; d.data[i + 2] += n; }
    c.putImageData(d, 0, 0);
    c.filter = 'blur(0.8px)'; c.drawImage(c.canvas, 0, 0);
  </script></body>`);
  return page.locator('#shot').screenshot({ type: 'jpeg', quality: 70 });
}

/** Renders each sample to image bytes (PNG, or JPEG for the photo) with one Chromium. */
export async function renderOcrSamples(samples: OcrSample[] = OCR_SAMPLES): Promise<Map<string, Buffer>> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 });
    const out = new Map<string, Buffer>();
    for (const s of samples) out.set(s.name, s.style === 'photo' ? await renderPhoto(page, s) : await renderScreenshot(page, s));
    return out;
  } finally {
    await browser.close();
  }
}

const flat = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Character error rate of a recognised text against its reference. */
export function characterErrorRate(recognised: string, reference: string): number {
  const ref = flat(reference);
  return ref.length ? distance(flat(recognised), ref) / ref.length : 0;
}

export interface OcrSampleResult {
  name: string;
  style: OcrSample['style'];
  font: string;
  px: number;
  width: number;
  height: number;
  status: string;
  cer: number;
  confidence: number | null;
  ms: number;
  recognised: string;
}

export interface OcrEvaluation {
  model: string;
  samples: OcrSampleResult[];
  /** Total edits / total reference characters, over the clean screenshots and over all. */
  cer_clean: number;
  cer_all: number;
  /** Mean time an image with the model loaded; the first image also pays cold_start_ms. */
  ms_mean: number;
  cold_start_ms: number;
  /** The process's resident memory after the run: the OCR worker thread, and whatever else the process loaded (npm run eval has the embedding model too). */
  rss_mb: number;
}

const round = (x: number, d = 4) => Math.round(x * 10 ** d) / 10 ** d;

export async function evaluateOcr(samples: OcrSample[] = OCR_SAMPLES): Promise<OcrEvaluation> {
  const images = await renderOcrSamples(samples);
  const first = images.get(samples[0].name)!;
  const cold = await recognizeImage(first, imageSize(first)); // starts the worker, loads the model
  const results: OcrSampleResult[] = [];
  let model = '';
  const totals = { clean: [0, 0], all: [0, 0] };
  for (const s of samples) {
    const bytes = images.get(s.name)!;
    const dims = imageSize(bytes);
    const r = await recognizeImage(bytes, dims);
    model = r.model;
    const text = r.status === 'ok' ? r.text : '';
    const reference = referenceText(s);
    const edits = distance(flat(text), flat(reference));
    totals.all[0] += edits;
    totals.all[1] += flat(reference).length;
    if (s.style === 'clean') {
      totals.clean[0] += edits;
      totals.clean[1] += flat(reference).length;
    }
    results.push({ name: s.name, style: s.style, font: s.font, px: s.px, width: dims.width, height: dims.height, status: r.status, cer: round(characterErrorRate(text, reference)), confidence: r.status === 'ok' ? r.confidence : null, ms: r.ms, recognised: text });
  }
  return {
    model,
    samples: results,
    cer_clean: round(totals.clean[0] / Math.max(1, totals.clean[1])),
    cer_all: round(totals.all[0] / Math.max(1, totals.all[1])),
    ms_mean: Math.round(results.reduce((s, r) => s + r.ms, 0) / Math.max(1, results.length)),
    cold_start_ms: cold.ms,
    rss_mb: Math.round(process.memoryUsage().rss / 1e6),
  };
}

export function formatOcrTable(e: OcrEvaluation): string {
  const rows = e.samples.map((r) => `${r.name.padEnd(10)} ${r.style.padEnd(5)} ${`${r.width}×${r.height}`.padEnd(9)} CER ${(r.cer * 100).toFixed(1).padStart(5)}%  conf ${r.confidence === null ? '  - ' : r.confidence.toFixed(2)}  ${String(r.ms).padStart(5)} ms`);
  return [`OCR (${e.model})`, ...rows, `clean screenshots CER ${(e.cer_clean * 100).toFixed(2)}%, all images ${(e.cer_all * 100).toFixed(2)}%; ${e.ms_mean} ms an image (the first, loading the model: ${e.cold_start_ms} ms), RSS ${e.rss_mb} MB`].join('\n');
}
