// Import runs: a request is answered at once with an import id; the work runs in the
// background (yielding to the event loop between batches) and its status, counts and
// problems can be polled. A run the process did not finish is marked "interrupted" at the
// next start; what it wrote is whole notes only, and importing again completes it
// (idempotent by import key and content hash).
import { iso } from '../../clock.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Logger } from '../../logger.js';
import type { ImportRow } from '../../repos/imports.repo.js';
import { UnrecognizedBookmarkFile } from '../../interop/bookmarks/types.js';
import type { VaultFile } from '../../interop/types.js';
import type { CapturesIntake } from '../captures/captures-intake.service.js';
import { importBookmarks } from './bookmark-import.js';
import { emptyCounts, type ImportCounts, type ImportProgress } from './import-counts.js';
import { importVault, type VaultImportDeps } from './vault-import.js';
import { importHighlights, type HighlightsImportDeps } from './highlights-import.js';

export interface ImportDto {
  id: string;
  kind: 'markdown' | 'bookmarks' | 'highlights';
  status: ImportRow['status'];
  counts: ImportCounts;
  problems: Array<{ path: string; kind: string; detail: string }>;
  error: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface ImportsDeps extends VaultImportDeps {
  log: Logger;
  highlights: HighlightsImportDeps['highlights'];
  intake: Pick<CapturesIntake, 'create' | 'check'>;
}

export class ImportsService {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly d: ImportsDeps) {}

  /** A vault as a zip archive (the API and dashboard upload). */
  async startMarkdownZip(tenantId: string, zip: Uint8Array, opts: { source?: string; paraFromFolders?: boolean }): Promise<{ id: string; status: 'running' }> {
    // The readers (zip, markdown, HTML, CSV parsers) load on an import's first use, not at start.
    const { readZip } = await import('../../interop/sources/zip.js');
    const { files, problems } = await readZip(zip);
    if (files.length === 0 && problems.length) throw new ValidationError(`the archive cannot be imported: ${problems[0].detail}`, [{ path: 'file', message: problems[0].detail }]);
    return this.startMarkdown(tenantId, files, { ...opts, sourceProblems: problems });
  }

  async startMarkdown(tenantId: string, files: VaultFile[], opts: { source?: string; paraFromFolders?: boolean; sourceProblems?: ImportProgress['problems'] }): Promise<{ id: string; status: 'running' }> {
    // Answered at once: the notes are parsed in the background run, a batch per event-loop turn.
    const total = files.filter((f) => /\.(md|markdown)$/i.test(f.path) && !f.path.split('/').some((s) => s.startsWith('.'))).length;
    return await this.run(tenantId, 'markdown', total, async (p, tick) => {
      const { readVaultInTurns } = await import('../../interop/vault/read-vault.js');
      const vault = await readVaultInTurns(files, { source: opts.source ?? 'markdown', paraFromFolders: opts.paraFromFolders });
      vault.problems.unshift(...(opts.sourceProblems ?? []));
      await importVault(this.d, tenantId, vault, p, tick);
    });
  }

  /** @throws ValidationError (400) naming the formats understood when the file is none of them. */
  async startBookmarks(tenantId: string, bytes: Uint8Array): Promise<{ id: string; status: 'running'; format: string }> {
    const { readBookmarkFile } = await import('../../interop/bookmarks/read-bookmarks.js');
    let file;
    try {
      file = readBookmarkFile(bytes);
    } catch (e) {
      if (e instanceof UnrecognizedBookmarkFile) throw new ValidationError(e.message, [{ path: 'file', message: e.message }]);
      throw e;
    }
    const started = await this.run(tenantId, 'bookmarks', file.bookmarks.length, async (p, tick) => {
      p.problems.push(...file.problems);
      await importBookmarks(this.d, tenantId, file.bookmarks, p, tick);
    });
    return { ...started, format: file.format };
  }

  /** Kindle's My Clippings.txt or a Readwise CSV export (recognised from the content). */
  async startHighlights(tenantId: string, bytes: Uint8Array): Promise<{ id: string; status: 'running'; format: string }> {
    const { readHighlightsFile, UnrecognizedHighlightsFile } = await import('../../interop/highlights/read-highlights.js');
    let file;
    try {
      file = readHighlightsFile(bytes);
    } catch (e) {
      if (e instanceof UnrecognizedHighlightsFile || (e instanceof Error && 'code' in e && String(e.code).startsWith('CSV_'))) {
        throw new ValidationError(e.message, [{ path: 'file', message: e.message }]);
      }
      throw e;
    }
    const started = await this.run(tenantId, 'highlights', file.books.length, (p, tick) => importHighlights(this.d, tenantId, file, p, tick));
    return { ...started, format: file.format };
  }

  async get(tenantId: string, id: string): Promise<ImportDto> {
    const row = await this.d.repo.get(tenantId, id);
    if (!row) throw new NotFoundError('Import');
    return { id: row.id, kind: row.kind, status: row.status, counts: JSON.parse(row.counts), problems: JSON.parse(row.problems), error: row.error, created_at: row.created_at, finished_at: row.finished_at };
  }

  /** Resolves when every run started so far has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }

  /** At start-up: a run that was going when the process stopped is reported as interrupted. */
  async markInterrupted(): Promise<number> {
    return await this.d.repo.interruptAll(iso(this.d.clock.now()));
  }

  private async run(tenantId: string, kind: ImportRow['kind'], total: number, work: (p: ImportProgress, tick: () => Promise<void>) => Promise<void>): Promise<{ id: string; status: 'running' }> {
    const id = newId('imp');
    const now = iso(this.d.clock.now());
    await this.d.repo.insert({ id, tenant_id: tenantId, kind, status: 'running', total, created_at: now });
    const progress: ImportProgress = { counts: emptyCounts(total), problems: [] };
    const save = async () => await this.d.repo.progress(tenantId, id, JSON.stringify(progress.counts), JSON.stringify(progress.problems));
    await save();
    const job = (async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      try {
        await work(progress, save);
        await this.d.repo.finish(tenantId, id, 'completed', JSON.stringify(progress.counts), JSON.stringify(progress.problems), null, iso(this.d.clock.now()));
      } catch (e) {
        this.d.log.error(`import ${id} failed`, e);
        await this.d.repo.finish(tenantId, id, 'failed', JSON.stringify(progress.counts), JSON.stringify(progress.problems), e instanceof Error ? e.message : String(e), iso(this.d.clock.now()));
      }
    })();
    this.running.add(job);
    void job.finally(() => this.running.delete(job));
    return { id, status: 'running' };
  }
}
