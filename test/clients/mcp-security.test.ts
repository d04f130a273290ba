// /mcp's HTTP transport security: DNS-rebinding protection (Host and Origin checked against
// an allow-list before anything else, 403 problem+json) and the RFC 9728 protected-resource
// metadata that a 401 points to.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

describe('/mcp transport security', () => {
  let t: TestApp;
  beforeEach(async () => (t = await makeTestApp({ config: { publicUrl: 'https://kb.example.org', allowedHosts: ['rhizome.lan'] } })));
  afterEach(() => t.close());

  const post = (headers: Record<string, string>, auth = true) =>
    t.app.request('http://127.0.0.1:7777/mcp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...(auth ? { Authorization: `ApiKey ${t.key}` } : {}), ...headers },
      body: JSON.stringify(INIT),
    });

  it('answers its own hosts and origins', async () => {
    for (const h of <Record<string, string>[]>[{ Host: '127.0.0.1:7777' }, { Host: 'localhost:7777', Origin: 'http://localhost:7777' }, { Host: 'kb.example.org', Origin: 'https://kb.example.org' }, { Host: 'rhizome.lan:7777' }, { Host: '[::1]:7777' }]) {
      const res = await post(h);
      expect(res.status, JSON.stringify(h)).toBe(200);
      expect((await res.json()).result.serverInfo.name).toBe('rhizome');
    }
  });

  it('refuses a foreign Host or Origin with 403, before authentication', async () => {
    for (const h of <Record<string, string>[]>[{ Host: 'evil.example:7777' }, { Host: '127.0.0.1:7777', Origin: 'http://evil.example' }, { Host: 'localhost', Origin: 'null' }, { Host: 'localhost', Origin: 'chrome-extension://abc' }]) {
      const body = await expectProblem(await post(h), 403, 'forbidden');
      expect(body.detail).toMatch(/not allowed/);
      await expectProblem(await post(h, false), 403, 'forbidden');
    }
  });

  it('publishes RFC 9728 metadata, and a 401 on /mcp points to it', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const res = await t.app.request(path);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ resource: 'https://kb.example.org/mcp', bearer_methods_supported: ['header'] });
    }
    const res = await post({ Host: 'localhost' }, false);
    await expectProblem(res, 401, 'unauthorized');
    expect(res.headers.get('WWW-Authenticate')).toBe('Bearer resource_metadata="https://kb.example.org/.well-known/oauth-protected-resource"');
  });
});
