// Every route module builds its routes on one of these: zod-validated, OpenAPI-documented,
// and turning validation failures into 400 validation_failed with field paths.
import { OpenAPIHono, type Hook } from '@hono/zod-openapi';
import type { Principal } from '../services/auth/auth.service.js';
import { ValidationError } from '../errors.js';

export type AppEnv = { Variables: { principal: Principal; tenantId: string } };

const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (!result.success) {
    const issues = result.error.issues;
    const errors = issues.map((i) => ({
      path: i.path.length ? i.path.join('.') : (i as { keys?: string[] }).keys?.join(',') ?? '',
      message: i.code === 'unrecognized_keys' ? `unknown field(s): ${(i as { keys?: string[] }).keys?.join(', ')}` : i.message,
    }));
    throw new ValidationError(errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; '), errors);
  }
};

export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook as never });
}
