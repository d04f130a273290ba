// Bookmarks become URL captures that keep the URL, title, tags, note (as the capture's
// "why") and first-saved date (the node's creation date). A URL already captured (compared in normal form) is skipped and counted. The
// captures are only queued here: fetching is the capture pipeline's, which runs its jobs
// with bounded concurrency.
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { CapturesIntake } from '../captures/captures-intake.service.js';
import type { ImportedBookmark } from '../../interop/bookmarks/types.js';
import { addProblem, type ImportProgress } from './import-counts.js';

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const BATCH = 200;

export async function importBookmarks(
  d: { tx: UnitOfWork; intake: Pick<CapturesIntake, 'create' | 'check'> },
  tenantId: string,
  bookmarks: ImportedBookmark[],
  progress: ImportProgress,
  onProgress: () => Promise<void>,
): Promise<void> {
  // A batch of captures per transaction (one disk sync per batch, not per bookmark); each
  // capture is a savepoint inside it, so one refused bookmark does not take others down.
  for (let start = 0; start < bookmarks.length; start += BATCH) {
    await d.tx.withTx(async () => {
      for (const b of bookmarks.slice(start, start + BATCH)) {
        if (await alreadyCaptured(d.intake, tenantId, b.url)) { progress.counts.skipped++; continue; }
        try {
          await d.tx.withTx(async () => await capture(d.intake, tenantId, b));
          progress.counts.created++;
        } catch (e) {
          progress.counts.failed++;
          addProblem(progress, { path: b.url, kind: 'unreadable', detail: `not captured: ${e instanceof Error ? e.message : String(e)}` });
        }
      }
    });
    await onProgress();
    await yieldTurn();
  }
}

async function capture(intake: Pick<CapturesIntake, 'create'>, tenantId: string, b: ImportedBookmark): Promise<void> {
  const why = (b.note ?? '').slice(0, 10_000) || undefined;
  // The node keeps the date the page was first bookmarked as its creation date.
  await intake.create(tenantId, {
    title: (b.title ?? b.url).slice(0, 500),
    url: b.url,
    content_type: 'article',
    why,
    source: 'api',
    tags: b.tags.map((t) => t.slice(0, 100)).filter(Boolean).slice(0, 50),
  }, { originalCreatedAt: b.created_at ?? undefined });
}

async function alreadyCaptured(intake: Pick<CapturesIntake, 'check'>, tenantId: string, url: string): Promise<boolean> {
  try {
    await intake.check(tenantId, url);
    return true;
  } catch {
    return false;
  }
}
