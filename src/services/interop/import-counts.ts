// What an import run reports: counts a person reads at the end, and every problem with
// the file it concerns.
import type { Problem } from '../../interop/types.js';

export interface ImportCounts {
  total: number;
  created: number;
  updated: number;
  /** Unchanged files (same content hash) and URLs already captured. */
  skipped: number;
  failed: number;
  unresolved_links: number;
  para_items_created: number;
  links_set: number;
  /** Embedded files sent to the capture pipeline. */
  attachments_captured: number;
  /** Highlights written (Markdown exports' highlight sections, Kindle, Readwise). */
  highlights_added: number;
}

export function emptyCounts(total: number): ImportCounts {
  return { total, created: 0, updated: 0, skipped: 0, failed: 0, unresolved_links: 0, para_items_created: 0, links_set: 0, attachments_captured: 0, highlights_added: 0 };
}

export interface ImportProgress {
  counts: ImportCounts;
  problems: Problem[];
}

/** Reports problems are capped so a pathological vault cannot grow one row without end. */
export const MAX_PROBLEMS = 1000;

export function addProblem(p: ImportProgress, problem: Problem): void {
  if (p.problems.length < MAX_PROBLEMS) p.problems.push(problem);
}
