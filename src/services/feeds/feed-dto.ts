import type { z } from '@hono/zod-openapi';
import type { FeedRow } from '../../repos/feeds.repo.js';
import type { Feed } from '../../schemas/feeds.js';

/** A feed as the API shows it: the response schema's own type. */
export type FeedDto = z.infer<typeof Feed>;

export function toFeedDto(r: FeedRow): FeedDto {
  return {
    id: r.id, url: r.url, title: r.title, site_url: r.site_url, format: r.format, status: r.status, tags: JSON.parse(r.tags), feed_tag: r.feed_tag,
    para_item_id: r.para_item_id, interval_minutes: Number(r.interval_minutes), last_polled_at: r.last_polled_at, last_success_at: r.last_success_at,
    next_poll_at: r.next_poll_at, error_count: Number(r.error_count), failing_since: r.failing_since, last_error: r.last_error,
    items_seen: Number(r.items_seen), created_at: r.created_at,
  };
}
