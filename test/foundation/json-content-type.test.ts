// Every endpoint that takes a JSON body refuses any other body with 415, before it acts:
// a cross-site form can send text/plain, urlencoded or multipart without a preflight, so a
// JSON endpoint that accepted them (POST /auth/magic-link did: 202, and a sign-in mail
// went out) could be driven from another site.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
// Throttles off: the anonymous requests below would otherwise meet 429 after a few 401s.
beforeAll(async () => (t = await makeTestApp({ config: { limits: { authFailuresPerAddress: 0, authFailuresPerKey: 0, tenantBudgetPerMinute: 0, trustProxy: false } } })));
afterAll(() => t.close());

interface Operation {
  requestBody?: { content?: Record<string, unknown> };
}

async function jsonOperations(): Promise<{ method: string; path: string }[]> {
  const doc = (await (await t.req('GET', '/api/v1/openapi.json')).json()) as { paths: Record<string, Record<string, Operation>> };
  const out: { method: string; path: string }[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (op.requestBody?.content?.['application/json']) out.push({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, 'x0') });
    }
  }
  return out;
}

const BODIES: [string, string][] = [
  ['text/plain', '{"email":"ada@example.com","title":"x"}'],
  ['text/plain;charset=UTF-8', '{"email":"ada@example.com"}'],
  ['application/x-www-form-urlencoded', 'email=ada%40example.com&title=x'],
  ['multipart/form-data; boundary=XyZ', '--XyZ\r\nContent-Disposition: form-data; name="email"\r\n\r\nada@example.com\r\n--XyZ--\r\n'],
];

describe('JSON endpoints refuse other bodies', () => {
  it('finds the JSON endpoints, magic-link among them', async () => {
    const ops = await jsonOperations();
    expect(ops.length).toBeGreaterThan(10);
    expect(ops).toContainEqual({ method: 'POST', path: '/api/v1/auth/magic-link' });
  });

  it('415 for text/plain, urlencoded and multipart on every one, signed in or not', async () => {
    const wrong: string[] = [];
    for (const { method, path } of await jsonOperations()) {
      for (const [type, body] of BODIES) {
        // Operator routes take the operator's key (a tenant's is refused before the body is read).
        const key = path.startsWith('/api/v1/admin/') ? (await t.s.operators.create('sweep')).key : t.key;
        for (const auth of [`ApiKey ${key}`, undefined]) {
          const res = await t.app.request(path, { method, body, headers: { 'Content-Type': type, Accept: 'application/json, text/event-stream', ...(auth ? { Authorization: auth } : {}) } });
          // Without credentials a protected endpoint may answer 401 first; it never acts.
          if (res.status !== 415 && !(auth === undefined && res.status === 401)) wrong.push(`${method} ${path} (${type}${auth ? '' : ', anonymous'}): ${res.status}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('POST /auth/magic-link with a text/plain body is a 415 however often it comes, and spends no sign-in quota', async () => {
    const app = await makeTestApp();
    try {
      await app.s.auth.addUser('ada@example.com', 'alpha');
      const send = (type: string) => app.app.request('/api/v1/auth/magic-link', { method: 'POST', body: '{"email":"ada@example.com"}', headers: { 'Content-Type': type } });
      for (let i = 0; i < 12; i++) await expectProblem(await send('text/plain;charset=UTF-8'), 415, 'unsupported_media_type');
      expect(app.log.lines.filter((l) => l.includes('mail to ada@example.com'))).toEqual([]);
      // The owner's own request still gets its mail: the refused ones were not counted.
      expect((await send('application/json')).status).toBe(202);
      expect(app.log.lines.filter((l) => l.includes('mail to ada@example.com'))).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
