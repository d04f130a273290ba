import { z } from '@hono/zod-openapi';

export const ApiKeyCreate = z.strictObject({ name: z.string().trim().min(1).max(200) }).openapi('ApiKeyCreate');
export const ApiKeyCreated = z
  .object({ id: z.string(), name: z.string(), key: z.string(), created_at: z.string() })
  .openapi('ApiKeyCreated');
export const ApiKeyRecord = z
  .object({ id: z.string(), name: z.string(), created_at: z.string(), last_used_at: z.string().nullable() })
  .openapi('ApiKey');
export const ApiKeyList = z.object({ data: z.array(ApiKeyRecord) }).openapi('ApiKeyList');

export const MagicLinkRequest = z.strictObject({ email: z.string().trim().email().max(320) }).openapi('MagicLinkRequest');
export const MagicLinkVerify = z.strictObject({ token: z.string().min(1).max(200) }).openapi('MagicLinkVerify');
export const RefreshRequest = z.strictObject({ refresh_token: z.string().min(1).max(200) }).openapi('RefreshRequest');
export const TokenPair = z
  .object({
    access_token: z.string(),
    refresh_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
  })
  .openapi('TokenPair');
