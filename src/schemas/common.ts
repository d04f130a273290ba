// Shapes shared by every resource's schemas (http, mcp and cli all use src/schemas/).
import { z } from '@hono/zod-openapi';

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .openapi('Problem');

export const IdParam = z.object({ id: z.string().min(1).max(100).openapi({ param: { name: 'id', in: 'path' } }) });

/** Standard error responses for route definitions. */
export function errors(...statuses: number[]) {
  const out: Record<number, { description: string; content: { 'application/problem+json': { schema: typeof Problem } } }> = {};
  const text: Record<number, string> = {
    400: 'validation_failed', 401: 'unauthorized', 404: 'not_found', 409: 'conflict', 410: 'gone',
    413: 'payload_too_large', 415: 'unsupported_media_type', 429: 'rate_limited',
  };
  for (const s of [401, ...statuses]) out[s] = { description: text[s] ?? 'error', content: { 'application/problem+json': { schema: Problem } } };
  return out;
}

export const json = <T extends z.ZodType>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema } },
});

export const body = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});

/**
 * A point in time in a query string: a UTC date (`2026-11-01`, its midnight) or an ISO 8601
 * date-time with a zone (`2026-11-01T09:30:00Z`, `...+02:00`); normalised to ISO UTC so it
 * compares with the stored timestamps as text.
 */
export const queryInstant = z
  .string()
  .max(40)
  .refine((v) => /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(v) && !Number.isNaN(Date.parse(v)), {
    message: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time with a zone',
  })
  .transform((v) => new Date(v.length === 10 ? `${v}T00:00:00Z` : v).toISOString());

/** Query-string booleans: only the words true/false. */
export const queryBool = z.enum(['true', 'false']).transform((v) => v === 'true');

export const pageQuery = {
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
};

/** A date or date-time in a JSON body: YYYY-MM-DD (UTC midnight) or ISO 8601 with a zone, kept as ISO UTC; years 1000–9999. */
export const bodyInstant = z
  .string()
  .max(40)
  .refine((v) => /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(v) && !Number.isNaN(Date.parse(v)) && Number(v.slice(0, 4)) >= 1000, {
    message: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time with a zone',
  })
  .transform((v) => new Date(v.length === 10 ? `${v}T00:00:00Z` : v).toISOString());
