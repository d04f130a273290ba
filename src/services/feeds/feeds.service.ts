// Feed subscriptions: subscribe by a feed's URL or a page's (its <link rel="alternate">
// names the feed), list, change, pause and resume, poll now, OPML in and out. Polling itself
// is feed-poll.ts; the feed's PARA item is applied when an item's capture completes.
import { iso, type Clock } from '../../clock.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import { newId } from '../../ids.js';
import { FetchError } from '../../ingest/fetch.js';
import { normalizeTag } from '../../ingest/tags.js';
import { parseHttpUrl } from '../../schemas/url.js';
import type { FeedRow, FeedsRepo } from '../../repos/feeds.repo.js';
import type { FeedFetcher } from './feed-fetch.js';
import { toFeedDto, type FeedDto } from './feed-dto.js';
import { discoverFeeds, FeedParseError, parseFeedDocument, type ParsedFeed } from './feed-parse.js';
import { schedulePoll, type FeedPollDeps } from './feed-poll.js';
import { OpmlError, readOpml, writeOpml } from './opml.js';

export const DEFAULT_INTERVAL_MINUTES = 60;

export interface FeedInput {
  url: string;
  tags?: string[];
  para_item_id?: string | null;
  interval_minutes?: number;
  title?: string;
}

export interface FeedPatch {
  title?: string;
  tags?: string[];
  para_item_id?: string | null;
  interval_minutes?: number;
  status?: 'active' | 'paused';
}

export interface FeedsDeps {
  tx: UnitOfWork;
  repo: FeedsRepo;
  queue: FeedPollDeps['queue'];
  clock: Clock;
  fetcher: FeedFetcher;
  /** Whether a PARA item of the tenant is active (unknown, archived and completed are not). */
  paraItemActive(tenantId: string, id: string): Promise<boolean>;
  /** Adds a PARA item to a node's user filings. */
  fileNode(tenantId: string, nodeId: string, paraItemId: string): Promise<void>;
}

const bad = (path: string, message: string) => new ValidationError(`${path}: ${message}`, [{ path, message }]);

export class FeedsService {
  constructor(private readonly d: FeedsDeps) {}

  /** Resolves the URL to a feed (fetching it, or the page that names it), then subscribes and polls at once. */
  async subscribe(tenantId: string, input: FeedInput): Promise<FeedDto> {
    const url = parseHttpUrl(input.url)?.toString();
    if (!url) throw bad('url', 'must be an http(s) URL');
    await this.checkPara(tenantId, input.para_item_id ?? null);
    const { feedUrl, parsed } = await this.resolve(url);
    return this.add(tenantId, { ...input, url: feedUrl, title: input.title ?? parsed.title }, parsed);
  }

  async list(tenantId: string): Promise<FeedDto[]> {
    return (await this.d.repo.list(tenantId)).map(toFeedDto);
  }

  async get(tenantId: string, id: string): Promise<FeedDto> {
    return toFeedDto(await this.row(tenantId, id));
  }

  async update(tenantId: string, id: string, p: FeedPatch): Promise<FeedDto> {
    return await this.d.tx.withTx(async () => {
      const cur = await this.row(tenantId, id);
      if (p.para_item_id !== undefined) await this.checkPara(tenantId, p.para_item_id);
      const resuming = p.status === 'active' && cur.status === 'paused';
      const status = p.status === 'paused' ? 'paused' : resuming ? 'active' : cur.status;
      await this.d.repo.update(tenantId, id, {
        title: p.title ?? cur.title,
        tags: p.tags ? JSON.stringify(cleanTags(p.tags)) : cur.tags,
        para_item_id: p.para_item_id !== undefined ? p.para_item_id : cur.para_item_id,
        interval_minutes: p.interval_minutes ?? cur.interval_minutes,
        status,
      });
      if (resuming) await schedulePoll(this.d, tenantId, id, 0, true);
      return this.get(tenantId, id);
    });
  }

  async remove(tenantId: string, id: string): Promise<void> {
    if (!await this.d.repo.delete(tenantId, id)) throw new NotFoundError('Feed');
  }

  /** Queues a poll now (a paused feed is not polled: resume it first). */
  async pollNow(tenantId: string, id: string): Promise<FeedDto> {
    return await this.d.tx.withTx(async () => {
      const f = await this.row(tenantId, id);
      if (f.status === 'paused') throw new ConflictError('the feed is paused; resume it first');
      await schedulePoll(this.d, tenantId, id, 0, true);
      return toFeedDto(f);
    });
  }

  async exportOpml(tenantId: string): Promise<string> {
    const feeds = (await this.d.repo.list(tenantId)).map((f) => ({ url: f.url, title: f.title, siteUrl: f.site_url }));
    return await writeOpml('Rhizome feeds', feeds, new Date(this.d.clock.now()));
  }

  /** Subscribes to every feed the OPML lists (without fetching: each is polled soon); known URLs are skipped. */
  async importOpml(tenantId: string, xml: string): Promise<{ imported: FeedDto[]; skipped: Array<{ url: string; reason: string }> }> {
    let listed;
    try {
      listed = await readOpml(xml);
    } catch (e) {
      if (e instanceof OpmlError) throw bad('body', e.message);
      throw e;
    }
    const imported: FeedDto[] = [];
    const skipped: Array<{ url: string; reason: string }> = [];
    await this.d.tx.withTx(async () => {
      for (const f of listed) {
        const url = parseHttpUrl(f.url)?.toString();
        if (!url) skipped.push({ url: f.url, reason: 'not an http(s) URL' });
        else if (await this.d.repo.byUrl(tenantId, url)) skipped.push({ url, reason: 'already subscribed' });
        else imported.push(await this.add(tenantId, { url, title: f.title ?? url, tags: f.tags }, null, { site_url: f.siteUrl }));
      }
    });
    return { imported, skipped };
  }

  /** capture.completed: a feed item's node is filed in its feed's PARA item (when that item is still active). */
  async onCaptureCompleted(tenantId: string, captureId: string, nodeId: string): Promise<void> {
    const feed = await this.d.repo.feedOfCapture(tenantId, captureId);
    if (!feed?.para_item_id || !await this.d.paraItemActive(tenantId, feed.para_item_id)) return;
    await this.d.fileNode(tenantId, nodeId, feed.para_item_id);
  }

  private async add(tenantId: string, input: FeedInput & { title: string }, parsed: ParsedFeed | null, extra: { site_url?: string | null } = {}): Promise<FeedDto> {
    return await this.d.tx.withTx(async () => {
      if (await this.d.repo.byUrl(tenantId, input.url)) throw new ConflictError(`already subscribed to ${input.url}`);
      const now = iso(this.d.clock.now());
      const title = input.title.trim().slice(0, 500) || input.url;
      const row: FeedRow = {
        id: newId('fed'), tenant_id: tenantId, url: input.url, site_url: parsed?.siteUrl ?? extra.site_url ?? null, title, format: parsed?.format ?? null,
        feed_tag: `feed-${normalizeTag(title).slice(0, 44) || 'untitled'}`, tags: JSON.stringify(cleanTags(input.tags ?? [])),
        para_item_id: input.para_item_id ?? null, interval_minutes: input.interval_minutes ?? DEFAULT_INTERVAL_MINUTES, status: 'active',
        etag: null, last_modified: null, last_polled_at: null, last_success_at: null, next_poll_at: now, error_count: 0, failing_since: null,
        last_error: null, items_seen: 0, created_at: now,
      };
      await this.d.repo.insert(row);
      await schedulePoll(this.d, tenantId, row.id, 0);
      return toFeedDto(row);
    });
  }

  private async resolve(url: string): Promise<{ feedUrl: string; parsed: ParsedFeed }> {
    const first = await this.fetch(url);
    try {
      return { feedUrl: url, parsed: await parseFeedDocument(first.body, first.finalUrl) };
    } catch (e) {
      if (!(e instanceof FeedParseError)) throw e;
    }
    const found = await discoverFeeds(first.body, first.finalUrl);
    if (found.length === 0) throw bad('url', 'no feed here: the URL is neither a feed nor a page that names one (<link rel="alternate">)');
    const feed = await this.fetch(found[0]);
    try {
      return { feedUrl: found[0], parsed: await parseFeedDocument(feed.body, feed.finalUrl) };
    } catch (e) {
      if (e instanceof FeedParseError) throw bad('url', `the page names ${found[0]}, but ${e.message}`);
      throw e;
    }
  }

  private async fetch(url: string): Promise<{ body: string; finalUrl: string }> {
    try {
      const res = await this.d.fetcher.fetchFeed(url, { etag: null, lastModified: null });
      return { body: res.bytes.toString('utf8'), finalUrl: res.finalUrl };
    } catch (e) {
      if (e instanceof FetchError) throw bad('url', e.message);
      throw e;
    }
  }

  private async checkPara(tenantId: string, id: string | null): Promise<void> {
    if (id !== null && !await this.d.paraItemActive(tenantId, id)) throw bad('para_item_id', `unknown or inactive PARA item ${id}`);
  }

  private async row(tenantId: string, id: string): Promise<FeedRow> {
    const r = await this.d.repo.get(tenantId, id);
    if (!r) throw new NotFoundError('Feed');
    return r;
  }
}

function cleanTags(tags: string[]): string[] {
  return [...new Set(tags.map(normalizeTag).filter(Boolean))];
}
