// How a node row is shown through the API.
import type { NodeRow } from '../../repos/nodes.repo.js';
import type { NodeDto } from '../../schemas/nodes.js';

export function toNodeDto(row: NodeRow, paraItemIds: string[]): NodeDto {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    body_markdown: row.body_markdown,
    tags: JSON.parse(row.tags),
    para_item_ids: paraItemIds,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
    occurred_at: row.occurred_at ?? null,
    mentioned_dates: JSON.parse(row.mentioned_dates ?? '[]') as string[],
  };
}
