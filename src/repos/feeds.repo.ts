// Feed subscriptions and the items each has seen.
import type { Database } from '../db/store/contract.js';
import { statementCache, type Prepare } from './statement-cache.js';

export type FeedStatus = 'active' | 'paused' | 'failing';

export interface FeedRow {
  id: string;
  tenant_id: string;
  url: string;
  site_url: string | null;
  title: string;
  format: string | null;
  feed_tag: string;
  tags: string;
  para_item_id: string | null;
  interval_minutes: number;
  status: FeedStatus;
  etag: string | null;
  last_modified: string | null;
  last_polled_at: string | null;
  last_success_at: string | null;
  next_poll_at: string | null;
  error_count: number;
  failing_since: string | null;
  last_error: string | null;
  items_seen: number;
  created_at: string;
}

export type FeedPollState = Pick<FeedRow, 'status' | 'etag' | 'last_modified' | 'last_polled_at' | 'last_success_at' | 'next_poll_at' | 'error_count' | 'failing_since' | 'last_error'>;

export class FeedsRepo {
  private readonly prepare: Prepare;

  constructor(db: Database) {
    this.prepare = statementCache(db);
  }

  async insert(row: FeedRow): Promise<void> {
    await this.prepare(
      `INSERT INTO feeds (id, tenant_id, url, site_url, title, format, feed_tag, tags, para_item_id, interval_minutes, status, etag, last_modified,
         last_polled_at, last_success_at, next_poll_at, error_count, failing_since, last_error, items_seen, created_at)
       VALUES (@id, @tenant_id, @url, @site_url, @title, @format, @feed_tag, @tags, @para_item_id, @interval_minutes, @status, @etag, @last_modified,
         @last_polled_at, @last_success_at, @next_poll_at, @error_count, @failing_since, @last_error, @items_seen, @created_at)`,
    ).run(row);
  }

  async list(tenantId: string): Promise<FeedRow[]> {
    return await this.prepare('SELECT * FROM feeds WHERE tenant_id = ? ORDER BY created_at, id').all(tenantId) as FeedRow[];
  }

  async get(tenantId: string, id: string): Promise<FeedRow | undefined> {
    return await this.prepare('SELECT * FROM feeds WHERE tenant_id = ? AND id = ?').get(tenantId, id) as FeedRow | undefined;
  }

  async byUrl(tenantId: string, url: string): Promise<FeedRow | undefined> {
    return await this.prepare('SELECT * FROM feeds WHERE tenant_id = ? AND url = ?').get(tenantId, url) as FeedRow | undefined;
  }

  async update(tenantId: string, id: string, p: Pick<FeedRow, 'title' | 'tags' | 'para_item_id' | 'interval_minutes' | 'status'>): Promise<void> {
    await this.prepare(
      `UPDATE feeds SET title = @title, tags = @tags, para_item_id = @para_item_id, interval_minutes = @interval_minutes, status = @status
       WHERE tenant_id = @tenant_id AND id = @id`,
    ).run({ ...p, tenant_id: tenantId, id });
  }

  async setPollState(tenantId: string, id: string, s: FeedPollState): Promise<void> {
    await this.prepare(
      `UPDATE feeds SET status = @status, etag = @etag, last_modified = @last_modified, last_polled_at = @last_polled_at, last_success_at = @last_success_at,
         next_poll_at = @next_poll_at, error_count = @error_count, failing_since = @failing_since, last_error = @last_error
       WHERE tenant_id = @tenant_id AND id = @id`,
    ).run({ ...s, tenant_id: tenantId, id });
  }

  async setFeedFacts(tenantId: string, id: string, f: { title: string; site_url: string | null; format: string }): Promise<void> {
    await this.prepare('UPDATE feeds SET title = @title, site_url = @site_url, format = @format WHERE tenant_id = @tenant_id AND id = @id').run({ ...f, tenant_id: tenantId, id });
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    return (await this.prepare('DELETE FROM feeds WHERE tenant_id = ? AND id = ?').run(tenantId, id)).changes > 0;
  }

  /** Which of these item keys the feed has already seen. */
  async seenKeys(tenantId: string, feedId: string, keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.prepare('SELECT item_key FROM feed_items WHERE tenant_id = ? AND feed_id = ? AND item_key IN (SELECT value FROM json_each(?))')
      .pluck()
      .all(tenantId, feedId, JSON.stringify(keys)) as string[];
    return new Set(rows);
  }

  /** Item URLs the feed already has (an item whose GUID changed but whose URL did not is the same item). */
  async seenUrls(tenantId: string, feedId: string, urls: string[]): Promise<Set<string>> {
    if (urls.length === 0) return new Set();
    const rows = await this.prepare('SELECT url FROM feed_items WHERE tenant_id = ? AND feed_id = ? AND url IN (SELECT value FROM json_each(?))')
      .pluck()
      .all(tenantId, feedId, JSON.stringify(urls)) as string[];
    return new Set(rows);
  }

  /**
   * Records an item as seen; false when it already was (two polls of one feed racing: the
   * primary key lets one of them have it, and only that one captures it).
   */
  async addItem(row: { tenant_id: string; feed_id: string; item_key: string; url: string | null; created_at: string }): Promise<boolean> {
    const added = (await this.prepare(
      `INSERT OR IGNORE INTO feed_items (tenant_id, feed_id, item_key, url, capture_id, created_at) VALUES (@tenant_id, @feed_id, @item_key, @url, NULL, @created_at)`,
    ).run(row)).changes > 0;
    if (added) await this.prepare('UPDATE feeds SET items_seen = items_seen + 1 WHERE tenant_id = ? AND id = ?').run(row.tenant_id, row.feed_id);
    return added;
  }

  async setItemCapture(tenantId: string, feedId: string, itemKey: string, captureId: string): Promise<void> {
    await this.prepare('UPDATE feed_items SET capture_id = ? WHERE tenant_id = ? AND feed_id = ? AND item_key = ?').run(captureId, tenantId, feedId, itemKey);
  }

  /** The feed a capture came from, if any. */
  async feedOfCapture(tenantId: string, captureId: string): Promise<FeedRow | undefined> {
    return await this.prepare(
      'SELECT f.* FROM feed_items i JOIN feeds f ON f.id = i.feed_id AND f.tenant_id = i.tenant_id WHERE i.tenant_id = ? AND i.capture_id = ?',
    ).get(tenantId, captureId) as FeedRow | undefined;
  }
}
