// Feed subscriptions and the items each has seen.
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';

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
  constructor(private readonly db: Database) {}

  async insert(row: FeedRow): Promise<void> {
    await this.db.run(sql`INSERT INTO feeds (id, tenant_id, url, site_url, title, format, feed_tag, tags, para_item_id, interval_minutes, status, etag, last_modified,
        last_polled_at, last_success_at, next_poll_at, error_count, failing_since, last_error, items_seen, created_at)
      VALUES (${row.id}, ${row.tenant_id}, ${row.url}, ${row.site_url}, ${row.title}, ${row.format}, ${row.feed_tag}, ${row.tags}, ${row.para_item_id},
        ${row.interval_minutes}, ${row.status}, ${row.etag}, ${row.last_modified}, ${row.last_polled_at}, ${row.last_success_at}, ${row.next_poll_at},
        ${row.error_count}, ${row.failing_since}, ${row.last_error}, ${row.items_seen}, ${row.created_at})`);
  }

  async list(tenantId: string): Promise<FeedRow[]> {
    return await this.db.all(sql<FeedRow>`SELECT * FROM feeds WHERE tenant_id = ${tenantId} ORDER BY created_at, id`);
  }

  async get(tenantId: string, id: string): Promise<FeedRow | undefined> {
    return await this.db.one(sql<FeedRow>`SELECT * FROM feeds WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  async byUrl(tenantId: string, url: string): Promise<FeedRow | undefined> {
    return await this.db.one(sql<FeedRow>`SELECT * FROM feeds WHERE tenant_id = ${tenantId} AND url = ${url}`);
  }

  async update(tenantId: string, id: string, p: Pick<FeedRow, 'title' | 'tags' | 'para_item_id' | 'interval_minutes' | 'status'>): Promise<void> {
    await this.db.run(sql`UPDATE feeds SET title = ${p.title}, tags = ${p.tags}, para_item_id = ${p.para_item_id}, interval_minutes = ${p.interval_minutes}, status = ${p.status}
      WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  async setPollState(tenantId: string, id: string, s: FeedPollState): Promise<void> {
    await this.db.run(sql`UPDATE feeds SET status = ${s.status}, etag = ${s.etag}, last_modified = ${s.last_modified}, last_polled_at = ${s.last_polled_at},
        last_success_at = ${s.last_success_at}, next_poll_at = ${s.next_poll_at}, error_count = ${s.error_count}, failing_since = ${s.failing_since},
        last_error = ${s.last_error}
      WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  async setFeedFacts(tenantId: string, id: string, f: { title: string; site_url: string | null; format: string }): Promise<void> {
    await this.db.run(sql`UPDATE feeds SET title = ${f.title}, site_url = ${f.site_url}, format = ${f.format} WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    return (await this.db.run(sql`DELETE FROM feeds WHERE tenant_id = ${tenantId} AND id = ${id}`)).changes > 0;
  }

  /** Which of these item keys the feed has already seen. */
  async seenKeys(tenantId: string, feedId: string, keys: string[]): Promise<Set<string>> {
    return await this.seen(tenantId, feedId, 'item_key', keys);
  }

  /** Item URLs the feed already has (an item whose GUID changed but whose URL did not is the same item). */
  async seenUrls(tenantId: string, feedId: string, urls: string[]): Promise<Set<string>> {
    return await this.seen(tenantId, feedId, 'url', urls);
  }

  /** The values of `column` among `values` that the feed's items already hold: one statement for keys and URLs. */
  private async seen(tenantId: string, feedId: string, column: 'item_key' | 'url', values: string[]): Promise<Set<string>> {
    if (values.length === 0) return new Set();
    // The asked values as rows: the one place the engines' SQL differs.
    const asked =
      this.db.engine === 'postgres' ? sql`SELECT unnest(${values}::text[])` : sql`SELECT value FROM json_each(${JSON.stringify(values)})`;
    const col = sql.ref(column);
    const rows = await this.db.all(
      sql<{ value: string }>`SELECT ${col} AS value FROM feed_items WHERE tenant_id = ${tenantId} AND feed_id = ${feedId} AND ${col} IN (${asked})`,
    );
    return new Set(rows.map((r) => r.value));
  }

  /**
   * Records an item as seen; false when it already was (two polls of one feed racing: the
   * primary key lets one of them have it, and only that one captures it).
   */
  async addItem(row: { tenant_id: string; feed_id: string; item_key: string; url: string | null; created_at: string }): Promise<boolean> {
    const added = (await this.db.run(sql`INSERT INTO feed_items (tenant_id, feed_id, item_key, url, capture_id, created_at)
      VALUES (${row.tenant_id}, ${row.feed_id}, ${row.item_key}, ${row.url}, NULL, ${row.created_at}) ON CONFLICT DO NOTHING`)).changes > 0;
    if (added) await this.db.run(sql`UPDATE feeds SET items_seen = items_seen + 1 WHERE tenant_id = ${row.tenant_id} AND id = ${row.feed_id}`);
    return added;
  }

  async setItemCapture(tenantId: string, feedId: string, itemKey: string, captureId: string): Promise<void> {
    await this.db.run(sql`UPDATE feed_items SET capture_id = ${captureId} WHERE tenant_id = ${tenantId} AND feed_id = ${feedId} AND item_key = ${itemKey}`);
  }

  /** The feed a capture came from, if any. */
  async feedOfCapture(tenantId: string, captureId: string): Promise<FeedRow | undefined> {
    return await this.db.one(
      sql<FeedRow>`SELECT f.* FROM feed_items i JOIN feeds f ON f.id = i.feed_id AND f.tenant_id = i.tenant_id WHERE i.tenant_id = ${tenantId} AND i.capture_id = ${captureId}`,
    );
  }
}
