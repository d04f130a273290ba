// The authorization endpoint and its pages (browser navigation, not API calls): check the
// request, sign in (emailed link or identity provider), approve or deny. The pages are
// bound to the browser that opened /oauth/authorize by an HttpOnly SameSite=Lax cookie, so
// a link opened elsewhere or a cross-site form post cannot act on someone's request.
import { randomBytes } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Services } from '../../container.js';
import { allowedHostnames, rebindingRefusal } from '../../mcp/http-guard.js';
import { ConsentPageError } from '../../services/auth/oauth/oauth-error.js';
import { clientAddress, throttleFor } from '../rate-limit.js';
import type { AppEnv } from '../router.js';
import { checkEmailPage, consentPage, errorPage, signInPage, type Page } from './pages.js';

const COOKIE = 'rhizome_oauth_browser';
/** Each opened authorization page stores a pending request: bounded per client address. */
export const AUTHORIZE_PAGES_PER_MINUTE = 30;
const BASE = '/oauth/authorize';

function send(c: Context, page: Page, status = 200) {
  c.header('Content-Security-Policy', page.csp);
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'same-origin');
  return c.html(page.html, status as 200);
}

/** Runs a page step; a ConsentPageError becomes an error page, not problem+json. */
async function step(c: Context, run: () => Promise<Response> | Response): Promise<Response> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof ConsentPageError) return send(c, errorPage(e.title, e.detail), e.status);
    throw e;
  }
}

async function form(c: Context): Promise<Record<string, string>> {
  const type = c.req.header('Content-Type') ?? '';
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) throw new ConsentPageError('Bad request', 'Expected a form submission.', 400);
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(await c.req.text())) if (!(k in out)) out[k] = v.slice(0, 2000);
  return out;
}

export function authorizeMount(app: Hono<AppEnv>, s: Services): void {
  const { authorization } = s.oauth;
  const secure = s.config.publicUrl.startsWith('https:');
  const allowed = allowedHostnames(s.config);
  const browserOf = (c: Context) => getCookie(c, COOKIE) ?? '';
  const providers = () => s.oidc.providers.list.map((p) => ({ name: p.name, label: p.label }));
  const toConsent = (c: Context, handle: string) => c.redirect(`${BASE}/consent?${new URLSearchParams({ request: handle })}`, 303);

  // Form posts must come from these pages (DNS rebinding and cross-site posts are refused).
  app.use(`${BASE}/*`, async (c, next) => {
    if (c.req.method !== 'POST') return next();
    const refusal = rebindingRefusal(allowed, c.req.header('Host') ?? new URL(c.req.url).host, c.req.header('Origin'));
    if (refusal) return send(c, errorPage('Refused', refusal), 403);
    return next();
  });

  const opened = s.limiters.create('oauth-authorize-pages', AUTHORIZE_PAGES_PER_MINUTE, 60);
  app.get(BASE, (c) =>
    step(c, async () => {
      try {
        await opened.consume(clientAddress(c, s.config.limits.trustProxy));
      } catch (e) {
        if (!(e instanceof RateLimiterRes)) throw e;
        c.header('Retry-After', String(Math.max(1, Math.ceil(e.msBeforeNext / 1000))));
        return send(c, errorPage('Too many requests', 'Too many sign-in pages were opened from this address; wait a minute and try again.'), 429);
      }
      const check = await authorization.check(new URL(c.req.url).searchParams);
      if (!check.ok) return c.redirect(check.redirect, 302);
      let browser = browserOf(c);
      if (!/^[A-Za-z0-9_-]{43}$/.test(browser)) {
        browser = randomBytes(32).toString('base64url');
        setCookie(c, COOKIE, browser, { path: BASE, httpOnly: true, sameSite: 'Lax', secure, maxAge: 3600 });
      }
      const handle = await authorization.begin(check.params, browser);
      return send(c, signInPage(await authorization.view(handle, browser), providers()));
    }),
  );

  app.post(`${BASE}/email`, (c) =>
    step(c, async () => {
      const f = await form(c);
      const email = (f.email ?? '').trim();
      const view = await authorization.view(f.request ?? '', browserOf(c));
      if (!/^[^@\s]{1,200}@[^@\s]{1,200}$/.test(email)) return send(c, signInPage(view, providers(), 'Enter a valid email address.'), 400);
      // Past the sign-in link limits the page reads the same, and nothing is sent.
      const t = throttleFor(s);
      if (await t.magicLinkAllowed(clientAddress(c, t.limits.trustProxy), email)) {
        try {
          await authorization.emailLink(view.handle, browserOf(c), email);
        } catch (e) {
          // The page must not differ for addresses with an account: the operator sees the log.
          if (e instanceof ConsentPageError) throw e;
          s.log.error('sending an authorization sign-in link failed', e);
        }
      }
      return send(c, checkEmailPage(view));
    }),
  );

  app.get(`${BASE}/signin`, (c) =>
    step(c, async () => {
      const q = new URL(c.req.url).searchParams;
      const handle = q.get('request') ?? '';
      await authorization.signInWithToken(handle, browserOf(c), (q.get('token') ?? '').slice(0, 200));
      return toConsent(c, handle);
    }),
  );

  app.post(`${BASE}/signin`, (c) =>
    step(c, async () => {
      const f = await form(c);
      await authorization.signInWithToken(f.request ?? '', browserOf(c), (f.token ?? '').trim().slice(0, 200));
      return toConsent(c, f.request ?? '');
    }),
  );

  app.get(`${BASE}/consent`, (c) =>
    step(c, async () => {
      const view = await authorization.view(new URL(c.req.url).searchParams.get('request') ?? '', browserOf(c));
      return send(c, view.email ? consentPage(view) : signInPage(view, providers()));
    }),
  );

  app.post(`${BASE}/decision`, (c) =>
    step(c, async () => {
      const f = await form(c);
      if (f.decision !== 'approve' && f.decision !== 'deny') throw new ConsentPageError('Bad request', 'Choose Approve or Deny.');
      return c.redirect(await authorization.decide(f.request ?? '', browserOf(c), f.decision === 'approve'), 303);
    }),
  );

  app.get(`${BASE}/provider/:name`, (c) =>
    step(c, async () => {
      const name = c.req.param('name');
      if (!s.oidc.providers.list.some((p) => p.name === name)) throw new ConsentPageError('Unknown provider', 'No identity provider of that name is configured.', 404);
      const url = await authorization.startProvider(new URL(c.req.url).searchParams.get('request') ?? '', browserOf(c), name);
      c.header('Cache-Control', 'no-store');
      return c.redirect(url, 302);
    }),
  );

  app.get(`${BASE}/provider-return`, (c) =>
    step(c, async () => {
      const q = new URL(c.req.url).searchParams;
      const handle = q.get('state') ?? '';
      const error = q.get('oidc_error');
      if (error) {
        const view = await authorization.view(handle, browserOf(c));
        return send(c, signInPage(view, providers(), error.slice(0, 500)), 401);
      }
      await authorization.finishProvider(handle, browserOf(c), (q.get('oidc_code') ?? '').slice(0, 200));
      return toConsent(c, handle);
    }),
  );
}
