// How a stored highlight is shown: its selectors re-anchored in the node's current text.
import { locate } from '../../schemas/highlight-selectors.js';
import type { HighlightRow } from '../../repos/highlights.repo.js';
import type { HighlightColor, HighlightDto } from '../../schemas/highlights.js';

export function toHighlightDto(row: HighlightRow, body: string): HighlightDto {
  const hint = row.start_pos !== null && row.end_pos !== null ? { start: row.start_pos, end: row.end_pos } : null;
  const at = locate(body, { exact: row.text, prefix: row.prefix, suffix: row.suffix }, hint);
  return {
    id: row.id,
    node_id: row.node_id,
    text: row.text,
    note: row.note,
    color: row.color as HighlightColor,
    selectors: [
      { type: 'TextQuoteSelector', exact: row.text, prefix: row.prefix, suffix: row.suffix },
      ...(at ? [{ type: 'TextPositionSelector' as const, start: at.start, end: at.end }] : []),
    ],
    orphaned: at === null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
