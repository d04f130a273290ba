import { createRoute, z } from '@hono/zod-openapi';
import type { Services } from '../../container.js';
import { body, errors, IdParam, json } from '../../schemas/common.js';
import { Rule, RuleActionParams, RuleCreate, RuleList, RuleLog, RuleLogEntry, RulePatch, RuleRunResult } from '../../schemas/rules.js';
import { createRouter } from '../router.js';

export function rulesRoutes(s: Services) {
  const r = createRouter();
  const t = ['rules'];

  r.openapi(
    createRoute({ method: 'post', path: '/rules', tags: t, summary: 'Create a rule (when → then)', request: body(RuleCreate), responses: { 201: json(Rule, 'Created'), ...errors(400) } }),
    async (c) => c.json(await s.rules.create(c.get('tenantId'), c.req.valid('json')), 201),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/rules', tags: t, summary: 'The rules, in the order they apply', responses: { 200: json(RuleList), ...errors() } }),
    async (c) => c.json({ data: await s.rules.list(c.get('tenantId')) }, 200),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/rules/{id}', tags: t, summary: 'One rule', request: { params: IdParam }, responses: { 200: json(Rule), ...errors(404) } }),
    async (c) => c.json(await s.rules.get(c.get('tenantId'), c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({ method: 'patch', path: '/rules/{id}', tags: t, summary: 'Change a rule', request: { params: IdParam, ...body(RulePatch) }, responses: { 200: json(Rule), ...errors(400, 404) } }),
    async (c) => c.json(await s.rules.update(c.get('tenantId'), c.req.valid('param').id, c.req.valid('json')), 200),
  );

  r.openapi(
    createRoute({ method: 'delete', path: '/rules/{id}', tags: t, summary: 'Delete a rule (what it did stays)', request: { params: IdParam }, responses: { 204: { description: 'Deleted' }, ...errors(404) } }),
    async (c) => {
      await s.rules.remove(c.get('tenantId'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/rules/{id}/dry-run', tags: t, summary: 'What the rule would change on existing nodes (nothing is changed)',
      request: { params: IdParam }, responses: { 200: json(RuleRunResult), ...errors(404) },
    }),
    async (c) => c.json(await s.rules.run(c.get('tenantId'), c.req.valid('param').id, true), 200),
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/rules/{id}/run', tags: t, summary: 'Apply the rule to existing nodes (exactly what the dry run shows), logging each action',
      request: { params: IdParam }, responses: { 200: json(RuleRunResult), ...errors(404) },
    }),
    async (c) => c.json(await s.rules.run(c.get('tenantId'), c.req.valid('param').id, false), 200),
  );

  r.openapi(
    createRoute({
      method: 'get', path: '/rules/{id}/log', tags: t, summary: 'What the rule did, newest first',
      request: { params: IdParam, query: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(200) }) },
      responses: { 200: json(RuleLog), ...errors(400, 404) },
    }),
    async (c) => c.json({ data: await s.rules.log(c.get('tenantId'), c.req.valid('param').id, c.req.valid('query').limit) }, 200),
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/rules/{id}/log/{action_id}/undo', tags: t, summary: 'Undo one logged action',
      request: { params: RuleActionParams }, responses: { 200: json(RuleLogEntry), ...errors(404, 409) },
    }),
    async (c) => {
      const p = c.req.valid('param');
      return c.json(await s.rules.undo(c.get('tenantId'), p.id, p.action_id), 200);
    },
  );

  return r;
}
