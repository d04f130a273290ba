// Kindle and Readwise highlights into a tenant: one node per book, its text the highlighted
// passages (so search finds them and each highlight anchors in it), and one highlight per
// passage with its note, colour and date. Idempotent: a book is found again by its import
// key, a highlight by its own key; a second import of the same file adds nothing, a later
// and longer one adds only the new passages.
import { createHash } from 'node:crypto';
import { iso, type Clock } from '../../clock.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { anchorText } from '../../schemas/highlight-selectors.js';
import type { HighlightedBook, HighlightFile } from '../../interop/highlights/types.js';
import type { ImportsRepo } from '../../repos/imports.repo.js';
import type { HighlightsService } from '../highlights/highlights.service.js';
import type { NodesService } from '../nodes/nodes.service.js';
import { addProblem, type ImportProgress } from './import-counts.js';

export interface HighlightsImportDeps {
  tx: UnitOfWork;
  repo: ImportsRepo;
  clock: Clock;
  nodes: Pick<NodesService, 'create' | 'update' | 'get'>;
  highlights: Pick<HighlightsService, 'importRecords'>;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const BATCH = 50;

export async function importHighlights(d: HighlightsImportDeps, tenantId: string, file: HighlightFile, progress: ImportProgress, onProgress: () => Promise<void>): Promise<void> {
  for (const p of file.problems) addProblem(progress, p);
  for (let start = 0; start < file.books.length; start += BATCH) {
    await d.tx.withTx(async () => {
      for (const book of file.books.slice(start, start + BATCH)) {
        try {
          await d.tx.withTx(async () => await writeBook(d, tenantId, file.format, book, progress));
        } catch (e) {
          progress.counts.failed++;
          addProblem(progress, { path: book.title, kind: 'unreadable', detail: `not imported: ${e instanceof Error ? e.message : String(e)}` });
        }
      }
    });
    await onProgress();
    await yieldTurn();
  }
}

async function writeBook(d: HighlightsImportDeps, tenantId: string, format: HighlightFile['format'], book: HighlightedBook, progress: ImportProgress): Promise<void> {
  // Kindle and Readwise name the same book the same way: both land on one node.
  const key = `book:${sha256(`${book.title}\n${book.author ?? ''}`)}`;
  const known = await d.repo.key(tenantId, key);
  const existing = known ? await tryGet(d, tenantId, known.node_id) : undefined;
  let nodeId: string;
  let content: string;
  if (existing) {
    nodeId = existing.id;
    const missing = book.highlights.filter((h) => !anchorText(existing.body_markdown, h.text.trim()));
    content = existing.body_markdown;
    if (missing.length) {
      content = `${content.replace(/\s+$/, '')}\n\n${missing.map((h) => h.text.trim()).join('\n\n')}\n`;
      await d.nodes.update(tenantId, nodeId, { content: content.slice(0, 500_000) });
      progress.counts.updated++;
    } else progress.counts.skipped++;
  } else {
    content = bookText(book);
    const dates = book.highlights.map((h) => h.created_at).filter((x): x is string => !!x).sort();
    nodeId = (await d.nodes.create(tenantId, { title: book.title.slice(0, 500), content: content.slice(0, 500_000), tags: [format, 'highlights'] }, dates[0] ? { created_at: dates[0] } : {})).id;
    progress.counts.created++;
  }
  await d.repo.upsertKey(tenantId, key, nodeId, sha256(content), iso(d.clock.now()));
  progress.counts.highlights_added += await d.highlights.importRecords(tenantId, nodeId, book.highlights, format, (h) => h.key ?? sha256(h.text));
}

/** The book's node text: where it came from, then each passage as its own paragraph. */
export function bookText(book: HighlightedBook): string {
  const by = book.author ? ` by ${book.author}` : '';
  return `Highlights from *${book.title}*${by}.\n\n${book.highlights.map((h) => h.text.trim()).join('\n\n')}\n`;
}

async function tryGet(d: HighlightsImportDeps, tenantId: string, id: string) {
  try {
    return await d.nodes.get(tenantId, id);
  } catch {
    return undefined;
  }
}
