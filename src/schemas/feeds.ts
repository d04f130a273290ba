// Feeds: POST /feeds {url, tags?, para_item_id?, interval_minutes?} → 201 (a page URL is
// resolved to the feed it names); GET /feeds, GET/PATCH/DELETE /feeds/{id}; POST
// /feeds/{id}/poll (202); GET /feeds/opml and POST /feeds/opml (import).
import { z } from '@hono/zod-openapi';

const tags = z.array(z.string().trim().min(1).max(100)).max(20);
const interval = z.number().int().min(5).max(7 * 24 * 60).openapi({ description: 'Minutes between polls (5 to a week); default 60' });

export const FeedCreate = z
  .strictObject({
    url: z.string().trim().min(1).max(2000).openapi({ description: "A feed's URL, or a page's that names its feed" }),
    title: z.string().trim().min(1).max(500).optional(),
    tags: tags.optional(),
    para_item_id: z.string().min(1).max(100).nullable().optional(),
    interval_minutes: interval.optional(),
  })
  .openapi('FeedCreate');

export const FeedPatch = z
  .strictObject({
    title: z.string().trim().min(1).max(500).optional(),
    tags: tags.optional(),
    para_item_id: z.string().min(1).max(100).nullable().optional(),
    interval_minutes: interval.optional(),
    status: z.enum(['active', 'paused']).optional().openapi({ description: 'paused stops polling; active resumes (and polls now)' }),
  })
  .openapi('FeedPatch');

export const Feed = z
  .object({
    id: z.string(),
    url: z.string(),
    title: z.string(),
    site_url: z.string().nullable(),
    format: z.string().nullable(),
    status: z.enum(['active', 'paused', 'failing']).openapi({ description: 'failing: every poll has failed for a week (still polled, daily)' }),
    tags: z.array(z.string()),
    feed_tag: z.string().openapi({ description: "The tag every item's node carries" }),
    para_item_id: z.string().nullable(),
    interval_minutes: z.number().int(),
    last_polled_at: z.string().nullable(),
    last_success_at: z.string().nullable(),
    next_poll_at: z.string().nullable(),
    error_count: z.number().int(),
    failing_since: z.string().nullable(),
    last_error: z.string().nullable(),
    items_seen: z.number().int(),
    created_at: z.string(),
  })
  .openapi('Feed');

export const FeedList = z.object({ data: z.array(Feed) }).openapi('FeedList');

export const OpmlImported = z
  .object({ imported: z.array(Feed), skipped: z.array(z.object({ url: z.string(), reason: z.string() })) })
  .openapi('OpmlImported');
