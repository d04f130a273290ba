// Per-tenant budgets on expensive endpoints: one tenant's burst gets 429s while another
// tenant is served, cheap reads are never counted, and a single-tenant install has none.
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';

const limits = { ...loadConfig({}).limits, tenantBudgetPerMinute: 3 };
let t: TestApp;
afterEach(() => t?.close());

describe('per-tenant request budgets', () => {
  it('do not apply while the install has one tenant', async () => {
    t = await makeTestApp({ config: { limits } });
    for (let i = 0; i < 6; i++) expect((await t.req('GET', '/api/v1/nodes?query=walnut')).status).toBe(200);
  });

  it('stop one tenant past its budget without slowing another; cheap reads are free', async () => {
    t = await makeTestApp({ config: { limits } });
    const other = await t.tenant('beta');
    const node = await (await t.req('POST', '/api/v1/nodes', { title: 'Walnut orchard' })).json();
    for (let i = 0; i < 3; i++) expect((await t.req('GET', '/api/v1/nodes?query=walnut')).status).toBe(200);
    const over = await t.req('POST', '/api/v1/context', { query: 'walnut' });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    await expectProblem(over, 429, 'rate_limited');
    // Not counted: a plain list, reading a node, writing a node.
    expect((await t.req('GET', '/api/v1/nodes')).status).toBe(200);
    expect((await t.req('GET', `/api/v1/nodes/${node.id}`)).status).toBe(200);
    expect((await t.req('POST', '/api/v1/nodes', { title: 'Still writable' })).status).toBe(201);
    // The other tenant has its own budget.
    expect((await t.req('GET', '/api/v1/nodes?query=walnut', undefined, other.auth)).status).toBe(200);
    expect((await t.req('GET', '/api/v1/links/suggestions?text=walnut', undefined, other.auth)).status).toBe(200);
  });
});
