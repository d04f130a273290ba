// Bookmarks become URL captures that keep the URL, title, tags and note (as the capture's
// "why"). A URL already captured (compared in normal form) is skipped and counted. The
// captures are only queued here: fetching is the capture pipeline's, which runs its jobs
// with bounded concurrency.
import type { CapturesIntake } from '../captures/captures-intake.service.js';
import type { ImportedBookmark } from '../../interop/bookmarks/types.js';
import { addProblem, type ImportProgress } from './import-counts.js';

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function importBookmarks(
  intake: Pick<CapturesIntake, 'create' | 'check'>,
  tenantId: string,
  bookmarks: ImportedBookmark[],
  progress: ImportProgress,
  onProgress: () => void,
): Promise<void> {
  let i = 0;
  for (const b of bookmarks) {
    if (++i % 100 === 0) { onProgress(); await yieldTurn(); }
    if (alreadyCaptured(intake, tenantId, b.url)) { progress.counts.skipped++; continue; }
    try {
      const when = b.created_at ? `Bookmarked ${b.created_at.slice(0, 10)}.` : '';
      const why = [b.note ?? '', when].filter(Boolean).join('\n\n').slice(0, 10_000) || undefined;
      intake.create(tenantId, {
        title: (b.title ?? b.url).slice(0, 500),
        url: b.url,
        content_type: 'article',
        why,
        source: 'api',
        tags: b.tags.map((t) => t.slice(0, 100)).filter(Boolean).slice(0, 50),
      });
      progress.counts.created++;
    } catch (e) {
      progress.counts.failed++;
      addProblem(progress, { path: b.url, kind: 'unreadable', detail: `not captured: ${e instanceof Error ? e.message : String(e)}` });
    }
  }
  onProgress();
}

function alreadyCaptured(intake: Pick<CapturesIntake, 'check'>, tenantId: string, url: string): boolean {
  try {
    intake.check(tenantId, url);
    return true;
  } catch {
    return false;
  }
}
