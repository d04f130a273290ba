// `rhizome capture`: URLs, files, folders, lists of URLs and notes from stdin, with a
// progress bar for bulk work and --wait to follow processing to the end.
import type { Command } from 'commander';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { guessUrlContentType, NOTE_TEXT_FIELD, noteTitle } from '../../client/capture-kind.js';
import type { RhizomeClient } from '../../client/client.js';
import { CONTENT_TYPES, TERMINAL_CAPTURE_STATUSES, type Capture, type CaptureInput, type ContentType } from '../../client/types.js';
import { exitCodeForStatus, toCliError } from '../api-errors.js';
import { CliError, EXIT } from '../exit-codes.js';
import { choice, client, intOption, print, printJson, progressBar, readStdin } from '../ui.js';
import { UnrecognizedBookmarkFile } from '../../interop/bookmarks/types.js';

type Item = { kind: 'url'; url: string } | { kind: 'file'; path: string } | { kind: 'note'; text: string };
interface Outcome { target: string; capture?: Capture; id?: string; status?: string; node_id?: string | null; error?: string; exitCode?: number }
interface Opts { title?: string; why?: string; type?: ContentType; note?: string; urls?: string; recursive?: boolean; wait?: boolean; timeout: number; skipExisting?: boolean; json?: boolean }

const MIME: Record<string, string> = {
  '.pdf': 'application/pdf', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp',
  '.doc': 'application/msword', '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.txt': 'text/plain', '.md': 'text/markdown', '.markdown': 'text/markdown',
};

const isUrl = (s: string) => /^https?:\/\//i.test(s);
const label = (i: Item) => (i.kind === 'url' ? i.url : i.kind === 'file' ? i.path : 'note');

function filesIn(dir: string, recursive: boolean): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) { if (recursive) out.push(...filesIn(p, true)); }
    else if (e.isFile()) out.push(p);
  }
  return out;
}

async function collectItems(targets: string[], o: Opts): Promise<Item[]> {
  const items: Item[] = [];
  if (o.note !== undefined) items.push({ kind: 'note', text: o.note });
  if (o.urls) {
    const text = o.urls === '-' ? await readStdin() : readFileSync(o.urls, 'utf8');
    // A bookmark export (browser HTML, Pocket, Omnivore, Karakeep, Linkwarden) is a list of
    // URLs too; `rhizome import bookmarks` also keeps their titles, tags and notes.
    const bookmarks = await bookmarkUrls(text);
    if (bookmarks) items.push(...bookmarks.map((url) => ({ kind: 'url' as const, url })));
    else for (const line of text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))) {
      if (!isUrl(line)) throw new CliError(`not an http(s) URL in ${o.urls}: ${line}`, EXIT.usage);
      items.push({ kind: 'url', url: line });
    }
  }
  for (const t of targets) {
    if (t === '-') {
      const text = await readStdin();
      if (!text.trim()) throw new CliError('the note on stdin is empty', EXIT.usage);
      items.push({ kind: 'note', text });
    } else if (isUrl(t)) items.push({ kind: 'url', url: t });
    else {
      let st;
      try { st = statSync(t); } catch { throw new CliError(`${t}: no such file or folder (URLs start with http:// or https://; "-" reads a note from stdin)`, EXIT.usage); }
      if (st.isDirectory()) items.push(...filesIn(t, !!o.recursive).map((path) => ({ kind: 'file' as const, path })));
      else items.push({ kind: 'file', path: t });
    }
  }
  return items;
}

async function bookmarkUrls(text: string): Promise<string[] | null> {
  if (/^\s*https?:\/\//i.test(text)) return null;
  // Loaded here, not with the CLI: its HTML and CSV parsers would slow every command's start.
  const { readBookmarkFile } = await import('../../interop/bookmarks/read-bookmarks.js');
  try {
    return readBookmarkFile(text).bookmarks.map((b) => b.url);
  } catch (e) {
    if (e instanceof UnrecognizedBookmarkFile) return null;
    throw e;
  }
}

function capturedWell(c: Capture | null): boolean {
  return c !== null && (c.status === 'completed' || c.status === 'archived');
}

async function captureOne(c: RhizomeClient, item: Item, o: Opts, single: boolean): Promise<Capture | 'skipped'> {
  if (item.kind === 'url') {
    // Only a page that was really captured counts: a failed or still-retrying fetch is tried again.
    if (o.skipExisting && capturedWell(await c.checkCapture(item.url))) return 'skipped';
    const input: CaptureInput = { title: (single && o.title) || item.url, url: item.url, content_type: o.type ?? guessUrlContentType(item.url), source: 'cli' };
    if (o.why) input.why = o.why;
    return c.capture(input);
  }
  if (item.kind === 'note') {
    const input: CaptureInput = { title: (single && o.title) || noteTitle(item.text), content_type: o.type ?? 'note', source: 'cli', [NOTE_TEXT_FIELD]: item.text };
    if (o.why) input.why = o.why;
    return c.capture(input);
  }
  const data = new Uint8Array(readFileSync(item.path));
  return c.upload({ name: basename(item.path), data, type: MIME[extname(item.path).toLowerCase()] }, { title: single ? o.title : undefined, why: o.why, source: 'cli' });
}

async function waitForAll(c: RhizomeClient, outcomes: Outcome[], timeoutS: number): Promise<void> {
  const open = outcomes.filter((x) => x.id && !TERMINAL_CAPTURE_STATUSES.has(x.status ?? ''));
  const bar = progressBar(outcomes.filter((x) => x.id).length, 'Processing');
  bar?.update(outcomes.filter((x) => x.id).length - open.length);
  const deadline = Date.now() + timeoutS * 1000;
  while (open.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 400));
    for (const x of [...open]) {
      const cap = await c.getCapture(x.id!);
      x.capture = cap;
      x.status = cap.status;
      x.node_id = cap.node_id;
      if (cap.error) x.error = String(cap.error);
      if (TERMINAL_CAPTURE_STATUSES.has(cap.status)) {
        open.splice(open.indexOf(x), 1);
        bar?.increment(1, { status: `${x.target.slice(-40)}: ${cap.status}` });
      }
    }
  }
  bar?.stop();
  for (const x of open) x.error = `still ${x.status} after ${timeoutS}s`;
}

export function registerCaptureCommand(program: Command): void {
  program
    .command('capture [targets...]')
    .description('capture URLs, files or whole folders, or a note from stdin ("-"), for background processing into nodes')
    .option('--title <title>', 'title (single capture only; default: the URL, the file name or the note\'s first line)')
    .option('--why <text>', 'why it is worth keeping')
    .option('--type <type>', `content type for URLs and notes: ${CONTENT_TYPES.join(', ')} (default: guessed)`, choice('--type', CONTENT_TYPES))
    .option('--note <text>', 'capture this text as a note')
    .option('--urls <file>', 'capture every URL in this file, one per line ("-" for stdin; # comments)')
    .option('-r, --recursive', 'include sub-folders of folders')
    .option('--skip-existing', 'skip URLs that were captured successfully before')
    .option('-w, --wait', 'wait until processing finishes (completed or failed)')
    .option('--timeout <seconds>', 'how long --wait waits (default 300)', intOption('--timeout', 1, 86_400), 300)
    .option('--json', 'print the capture (or, for several, an array of {target, id, status, node_id, error}) as JSON')
    .action(async (targets: string[], o: Opts) => {
      const items = await collectItems(targets, o);
      if (!items.length) throw new CliError('nothing to capture: give a URL, a file, a folder, "-" (note from stdin), --note or --urls', EXIT.usage);
      const c = client();
      const single = items.length === 1;
      const outcomes: Outcome[] = [];
      const bar = single ? undefined : progressBar(items.length, 'Capturing ');
      for (const item of items) {
        const target = label(item);
        try {
          const cap = await captureOne(c, item, o, single);
          outcomes.push(cap === 'skipped' ? { target, status: 'skipped' } : { target, capture: cap, id: cap.id, status: cap.status });
        } catch (e) {
          const err = toCliError(e);
          if (single) throw err;
          if (!(err instanceof CliError) || err.exitCode === EXIT.unavailable || err.exitCode === EXIT.auth) { bar?.stop(); throw err; }
          outcomes.push({ target, error: err.message, exitCode: err.exitCode });
        }
        bar?.increment(1, { status: target.slice(-40) });
      }
      bar?.stop();
      if (o.wait) await waitForAll(c, outcomes, o.timeout);

      if (o.json) printJson(single && outcomes[0].capture ? outcomes[0].capture : outcomes.map(({ capture: _c, exitCode: _e, ...x }) => x));
      else for (const x of outcomes) {
        if (x.id) print(`${x.id}  ${x.status}${x.node_id ? `  node ${x.node_id}` : ''}  ${x.target}${x.error ? `  (${x.error})` : ''}`);
        else if (x.status === 'skipped') print(`skipped (already captured)  ${x.target}`);
        else process.stderr.write(`failed  ${x.target}: ${x.error}\n`);
      }
      const rejected = outcomes.filter((x) => !x.id && x.error);
      const failed = outcomes.filter((x) => x.id && (x.status === 'failed' || x.error));
      if (!single || rejected.length || failed.length) {
        const captured = outcomes.filter((x) => x.id).length;
        process.stderr.write(`${captured} captured, ${rejected.length} rejected${o.wait ? `, ${failed.length} failed or unfinished` : ''}\n`);
      }
      if (rejected.length) process.exitCode = rejected[0].exitCode ?? exitCodeForStatus(500);
      else if (failed.length) process.exitCode = EXIT.error;
    });
}
