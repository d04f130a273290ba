import type { FeedRow } from '../../repos/feeds.repo.js';

export interface FeedDto {
  id: string;
  url: string;
  title: string;
  site_url: string | null;
  format: string | null;
  status: FeedRow['status'];
  tags: string[];
  feed_tag: string;
  para_item_id: string | null;
  interval_minutes: number;
  last_polled_at: string | null;
  last_success_at: string | null;
  next_poll_at: string | null;
  error_count: number;
  failing_since: string | null;
  last_error: string | null;
  items_seen: number;
  created_at: string;
}

export function toFeedDto(r: FeedRow): FeedDto {
  return {
    id: r.id, url: r.url, title: r.title, site_url: r.site_url, format: r.format, status: r.status, tags: JSON.parse(r.tags), feed_tag: r.feed_tag,
    para_item_id: r.para_item_id, interval_minutes: Number(r.interval_minutes), last_polled_at: r.last_polled_at, last_success_at: r.last_success_at,
    next_poll_at: r.next_poll_at, error_count: Number(r.error_count), failing_since: r.failing_since, last_error: r.last_error,
    items_seen: Number(r.items_seen), created_at: r.created_at,
  };
}
