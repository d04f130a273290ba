// How a capture row is shown, and the status rules shared by intake, lifecycle and pipeline.
import type { CaptureRow, CaptureStatus } from '../../repos/captures.repo.js';
import type { CaptureDto } from '../../schemas/captures.js';

export const CAPTURE_JOB = 'capture_process';

export interface CaptureJobPayload {
  capture_id: string;
  /** The capture's run this job belongs to; a job of an older run does nothing. */
  run: number;
}

/** The status the pipeline acts on: an archived capture keeps moving underneath its archive flag. */
export function effectiveStatus(c: Pick<CaptureRow, 'status' | 'status_before_archive'>): CaptureStatus {
  return c.status === 'archived' ? (c.status_before_archive ?? 'completed') : c.status;
}

/** New status fields after the pipeline moves a capture to `next`, respecting an archive. */
export function moveTo(c: Pick<CaptureRow, 'status' | 'status_before_archive'>, next: CaptureStatus): Pick<CaptureRow, 'status' | 'status_before_archive'> {
  return c.status === 'archived' ? { status: 'archived', status_before_archive: next } : { status: next, status_before_archive: null };
}

export function toCaptureDto(row: CaptureRow): CaptureDto {
  return {
    id: row.id,
    status: row.status,
    title: row.title,
    url: row.url,
    url_normalized: row.url_normalized,
    content_type: row.content_type as CaptureDto['content_type'],
    why: row.why,
    selected_text: row.selected_text,
    source: row.source as CaptureDto['source'],
    node_id: row.node_id,
    error: row.error,
    metadata: JSON.parse(row.metadata),
    attempts: row.attempts,
    created_at: row.created_at,
    updated_at: row.updated_at,
    processed_at: row.processed_at,
  };
}
