// The archived copy of a captured page and the check for pages whose original is gone.
import { z } from '@hono/zod-openapi';

export const ArchiveQueued = z.object({ capture_id: z.string(), status: z.literal('queued') }).openapi('ArchiveQueued');

export const LinkCheckResult = z
  .object({
    checked: z.number().int(),
    gone: z.array(z.object({ capture_id: z.string(), url: z.string(), reason: z.string() })),
    unknown: z.number().int().openapi({ description: 'Captures that could not be judged this time (timeouts, server errors)' }),
  })
  .openapi('LinkCheckResult');
