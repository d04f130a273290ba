// A minimal browser for the authorization pages: keeps cookies, follows nothing by itself,
// submits forms as application/x-www-form-urlencoded with the page's Origin, and reads the
// sign-in link Rhizome "mailed" (the log mailer writes it to the test log).
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';

export type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;

export const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

export class OAuthBrowser {
  private cookies = new Map<string, string>();
  constructor(private readonly fetchImpl: FetchLike, readonly origin: string) {}

  async get(url: string): Promise<Response> {
    return this.keep(await this.fetchImpl(new URL(url, this.origin).href, { redirect: 'manual', headers: this.headers() }));
  }

  async post(path: string, fields: Record<string, string>): Promise<Response> {
    return this.keep(
      await this.fetchImpl(new URL(path, this.origin).href, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...this.headers(), 'Content-Type': 'application/x-www-form-urlencoded', Origin: this.origin },
        body: new URLSearchParams(fields).toString(),
      }),
    );
  }

  private headers(): Record<string, string> {
    return this.cookies.size ? { Cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }

  private keep(res: Response): Response {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    return res;
  }
}

/** The request handle of a rendered authorization page. */
export function handleOf(html: string): string {
  const m = /name="request" value="([^"]+)"/.exec(html);
  if (!m) throw new Error(`no request handle in page: ${html.slice(0, 500)}`);
  return m[1];
}

/** The last sign-in link mailed for an authorization request. */
export function mailedLink(lines: string[]): string {
  const all = lines.join('');
  const links = [...all.matchAll(/(http\S+\/oauth\/authorize\/signin\?\S+)/g)];
  if (!links.length) throw new Error('no sign-in link was mailed');
  return links[links.length - 1][1];
}

/**
 * Authorization page → email → mailed link → consent → decision; returns where the
 * browser is sent back to (the client's redirect URI with code or error).
 */
export async function authorizeByEmail(b: OAuthBrowser, authorizeUrl: string, email: string, lines: string[], decision: 'approve' | 'deny' = 'approve'): Promise<URL> {
  const page = await b.get(authorizeUrl);
  const html = await page.text();
  expect(page.status, html).toBe(200);
  const request = handleOf(html);
  const sent = await b.post('/oauth/authorize/email', { request, email });
  expect(sent.status).toBe(200);
  const back = await b.get(mailedLink(lines));
  expect(back.status, await back.clone().text()).toBe(303);
  const consent = await b.get(back.headers.get('location')!);
  const consentHtml = await consent.text();
  expect(consent.status).toBe(200);
  expect(consentHtml).toContain('Approve');
  const done = await b.post('/oauth/authorize/decision', { request: handleOf(consentHtml), decision });
  expect(done.status, await done.clone().text()).toBe(303);
  return new URL(done.headers.get('location')!);
}
