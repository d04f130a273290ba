// Validates input that did not come through an HTTP route's validator (services called by
// the CLI, MCP, importers) with the same schemas and the same 400 shape.
import type { z } from '@hono/zod-openapi';
import { ValidationError } from '../errors.js';

export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const errors = r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw new ValidationError(errors.map((e) => `${e.path}: ${e.message}`).join('; '), errors);
}
