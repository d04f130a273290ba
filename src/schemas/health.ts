import { z } from '@hono/zod-openapi';

export const Health = z
  .object({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    uptime_s: z.number(),
    embedding: z.object({ state: z.enum(['loading', 'ready', 'error']), model: z.string(), dimension: z.number(), error: z.string().optional() }),
    jobs: z.object({ queued: z.number().int() }),
  })
  .openapi('Health');
