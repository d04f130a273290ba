import { z } from '@hono/zod-openapi';

export const Health = z
  .object({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    uptime_s: z.number(),
    /** Why the status is degraded (e.g. the disk is full); absent when ok. */
    reason: z.string().optional(),
    /** Model state and queue depth: only for a caller with valid credentials (its own tenant's jobs). */
    embedding: z
      .object({
        state: z.enum(['loading', 'ready', 'error']),
        model: z.string(),
        dimension: z.number(),
        error: z.string().optional(),
        pending: z.number().int().optional().openapi({ description: "The caller's notes still waiting for their vectors (embedding jobs queued or running; a long note's passages are embedded in its job): the background embedding's progress" }),
      })
      .optional(),
    jobs: z.object({ queued: z.number().int() }).optional(),
  })
  .openapi('Health');
