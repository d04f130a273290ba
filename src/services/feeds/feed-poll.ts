// One durable job per feed polls it and schedules the next poll in the same transaction as
// the captures it made, so a crash re-polls rather than loses or doubles items. A 304 costs
// no capture. Each new item (by GUID, then URL) becomes a capture: the full page when it can
// be fetched, else the item's own content; it carries the feed's tags and the feed's own tag.
// Errors never fail the job: the feed records them and backs off (feed-schedule.ts).
import { iso, type Clock } from '../../clock.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { Job, JobHandler, JobQueue } from '../../jobs/queue.js';
import type { Logger } from '../../logger.js';
import type { FeedRow, FeedsRepo } from '../../repos/feeds.repo.js';
import type { CaptureCreateInput } from '../../schemas/captures.js';
import { etagOf, lastModifiedOf, PAGE_MAX_CHARS, type FeedFetcher } from './feed-fetch.js';
import { parseFeedDocument, type FeedItem } from './feed-parse.js';
import { isFailing, nextPollDelayMs } from './feed-schedule.js';
import type { ItemFacts } from '../rules/rules.service.js';

export const FEED_POLL_JOB = 'feed_poll';
/** New items captured per poll; the rest of a long backlog is marked seen (a feed's first poll does not import years). */
export const MAX_NEW_ITEMS_PER_POLL = 50;

export interface FeedPollPayload {
  feed_id: string;
}

export interface FeedPollDeps {
  tx: UnitOfWork;
  repo: FeedsRepo;
  queue: Pick<JobQueue, 'enqueueInTx'>;
  clock: Clock;
  log: Logger;
  fetcher: FeedFetcher;
  captures: { create(tenantId: string, input: CaptureCreateInput, origin?: { originalCreatedAt?: string }): Promise<{ id: string }> };
  /** Rules that skip feed items before they are captured (services/rules). */
  rules?: { feedItemSkipper(tenantId: string, facts: ItemFacts): Promise<string | null>; logSkippedItem(tenantId: string, ruleId: string, capture: CaptureCreateInput): Promise<void> };
}

export async function schedulePoll(d: Pick<FeedPollDeps, 'queue'>, tenantId: string, feedId: string, delayMs: number, now = false): Promise<void> {
  // One scheduled poll per feed; "poll now" has its own key so it is never swallowed by it.
  await d.queue.enqueueInTx(tenantId, FEED_POLL_JOB, { feed_id: feedId }, { dedupeKey: `${now ? 'feed_poll_now' : 'feed_poll'}:${feedId}`, delayMs });
}

export function feedPollHandler(d: FeedPollDeps): JobHandler<FeedPollPayload> {
  return {
    kind: FEED_POLL_JOB,
    maxAttempts: 3, // only storage trouble reaches the queue: errors of the feed are the feed's
    run: async (jobs: Job<FeedPollPayload>[]) => {
      for (const j of jobs) await pollFeed(d, j.tenantId, j.payload.feed_id);
    },
  };
}

export async function pollFeed(d: FeedPollDeps, tenantId: string, feedId: string): Promise<void> {
  const feed = await d.repo.get(tenantId, feedId);
  if (!feed || feed.status === 'paused') return; // deleted, or paused: resuming schedules the next poll
  let prepared: Prepared[] = [];
  let res;
  try {
    res = await d.fetcher.fetchFeed(feed.url, { etag: feed.etag, lastModified: feed.last_modified });
    if (res.status !== 304) {
      const parsed = await parseFeedDocument(res.bytes.toString('utf8'), res.finalUrl);
      await d.repo.setFeedFacts(tenantId, feedId, { title: feed.title, site_url: parsed.siteUrl, format: parsed.format });
      prepared = await prepareNewItems(d, feed, parsed.items);
    }
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    d.log.info(`feed ${feedId} poll failed: ${message}`);
    return recordFailure(d, feed, message);
  }
  const now = d.clock.now();
  await d.tx.withTx(async () => {
    const cur = await d.repo.get(tenantId, feedId);
    if (!cur || cur.status === 'paused') return;
    for (const { item, capture, skippedBy } of prepared) {
      if (!await d.repo.addItem({ tenant_id: tenantId, feed_id: feedId, item_key: item.key, url: item.url, created_at: iso(now) })) continue;
      if (skippedBy) await d.rules?.logSkippedItem(tenantId, skippedBy.rule_id, skippedBy.capture);
      if (!capture) continue;
      const captureId = (await d.captures.create(tenantId, capture, item.published ? { originalCreatedAt: item.published } : undefined)).id;
      await d.repo.setItemCapture(tenantId, feedId, item.key, captureId);
    }
    const delay = nextPollDelayMs(cur.interval_minutes, 0);
    await d.repo.setPollState(tenantId, feedId, {
      status: 'active',
      etag: res.status === 304 ? cur.etag : etagOf(res),
      last_modified: res.status === 304 ? cur.last_modified : lastModifiedOf(res),
      last_polled_at: iso(now), last_success_at: iso(now), next_poll_at: iso(now + delay),
      error_count: 0, failing_since: null, last_error: null,
    });
    await schedulePoll(d, tenantId, feedId, delay);
  });
}

/** The items not seen before (by key, then URL), oldest first, each with the capture it becomes (null past the cap). */
async function prepareNewItems(d: FeedPollDeps, feed: FeedRow, items: FeedItem[]) {
  const t = feed.tenant_id;
  const unique = [...new Map(items.map((i) => [i.key, i])).values()];
  const seenKeys = await d.repo.seenKeys(t, feed.id, unique.map((i) => i.key));
  const seenUrls = await d.repo.seenUrls(t, feed.id, unique.flatMap((i) => (i.url ? [i.url] : [])));
  const fresh = unique.filter((i) => !seenKeys.has(i.key) && !(i.url && seenUrls.has(i.url)));
  // Feeds list newest first: the newest MAX_NEW_ITEMS_PER_POLL are captured, oldest of them first.
  const out: Prepared[] = [];
  for (const [n, item] of fresh.entries()) {
    if (n >= MAX_NEW_ITEMS_PER_POLL) {
      out.push({ item, capture: null });
      continue;
    }
    const base = baseCapture(feed, item);
    const rule = await d.rules?.feedItemSkipper(t, { title: base.title, url: item.url, content_type: base.content_type, feed_id: feed.id, tags: base.tags ?? [] });
    out.push(rule ? { item, capture: null, skippedBy: { rule_id: rule, capture: base } } : { item, capture: await captureFor(d, base, item) });
  }
  return out.reverse();
}

interface Prepared {
  item: FeedItem;
  capture: CaptureCreateInput | null;
  /** A rule skipped it: logged with the capture undoing the skip would make. */
  skippedBy?: { rule_id: string; capture: CaptureCreateInput };
}

function baseCapture(feed: FeedRow, item: FeedItem): CaptureCreateInput {
  const tags = [...new Set([...(JSON.parse(feed.tags) as string[]), feed.feed_tag])];
  return { title: item.title.slice(0, 500), content_type: 'article', source: 'api', tags, ...(item.url ? { url: item.url } : {}) };
}

async function captureFor(d: FeedPollDeps, base: CaptureCreateInput, item: FeedItem): Promise<CaptureCreateInput> {
  const page = item.url ? await d.fetcher.fetchPage(item.url) : null;
  if (page) return { ...base, raw_content: page };
  const content = item.content.slice(0, PAGE_MAX_CHARS);
  if (!content.trim()) return base; // nothing of its own: the pipeline fetches the URL (and retries, then bookmarks)
  // An HTML fragment is given the page around it the extractor expects.
  if (!/<[a-z][^>]*>/i.test(content)) return { ...base, selected_text: content.slice(0, 200_000) };
  return { ...base, raw_content: `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(item.title)}</title></head><body><article><h1>${escapeHtml(item.title)}</h1>${content}</article></body></html>` };
}

async function recordFailure(d: FeedPollDeps, feed: FeedRow, message: string): Promise<void> {
  const now = d.clock.now();
  await d.tx.withTx(async () => {
    const cur = await d.repo.get(feed.tenant_id, feed.id);
    if (!cur || cur.status === 'paused') return;
    const errors = cur.error_count + 1;
    const since = cur.failing_since ?? iso(now);
    const delay = nextPollDelayMs(cur.interval_minutes, errors);
    await d.repo.setPollState(feed.tenant_id, feed.id, {
      status: isFailing(since, now) ? 'failing' : 'active',
      etag: cur.etag, last_modified: cur.last_modified, last_polled_at: iso(now), last_success_at: cur.last_success_at,
      next_poll_at: iso(now + delay), error_count: errors, failing_since: since, last_error: message.slice(0, 1000),
    });
    await schedulePoll(d, feed.tenant_id, feed.id, delay);
  });
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
