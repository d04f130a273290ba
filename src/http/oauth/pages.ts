// The authorization pages, rendered on the server: no script at all, one nonce'd style
// sheet, every value escaped. Their CSP allows forms to post only here (and, for the consent
// form, to redirect on to the application's own redirect URI), and no framing. Referrer
// policy same-origin: with no-referrer a browser sends `Origin: null` on the pages' own form
// posts, and the Origin check could no longer tell them from a foreign site's.
import { randomBytes } from 'node:crypto';
import type { ConsentView } from '../../services/auth/oauth/authorization.service.js';
import { redirectCspSource, redirectTarget } from '../../services/auth/oauth/redirect-uris.js';

export interface Page {
  html: string;
  csp: string;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1d2433}
h1{font-size:1.4rem}.box{border:1px solid #d6dae3;border-radius:8px;padding:1rem 1.25rem;margin:1rem 0}
label{display:block;margin:.5rem 0 .25rem}input{width:100%;box-sizing:border-box;padding:.5rem;font:inherit}
button,.button{display:inline-block;margin:.75rem .5rem 0 0;padding:.5rem 1rem;font:inherit;border-radius:6px;border:1px solid #2e5bff;background:#2e5bff;color:#fff;text-decoration:none;cursor:pointer}
button.secondary{background:#fff;color:#2e5bff}.muted{color:#5b6475;font-size:.9rem}.error{color:#a4161a}code{word-break:break-all}`;

function render(title: string, body: string, formTargets: string[] = []): Page {
  const nonce = randomBytes(16).toString('base64');
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    "img-src 'self'",
    `form-action 'self'${formTargets.map((t) => ` ${t}`).join('')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin"><title>${esc(title)} · Rhizome</title><style nonce="${nonce}">${STYLE}</style></head>
<body><h1>${esc(title)}</h1>${body}</body></html>`;
  return { html, csp };
}

function who(v: ConsentView): string {
  const target = redirectTarget(v.redirectUri);
  const site = v.clientUri ? ` (<span class="muted">${esc(v.clientUri)}</span>)` : '';
  return `<p><strong>${esc(v.clientName)}</strong>${site} asks to use your Rhizome knowledge graph: read, search, create and change your notes. It will return to <code>${esc(target)}</code>.</p>`;
}

const hidden = (handle: string) => `<input type="hidden" name="request" value="${esc(handle)}">`;

export function signInPage(v: ConsentView, providers: { name: string; label: string }[], notice?: string): Page {
  const buttons = providers
    .map((p) => `<a class="button" href="/oauth/authorize/provider/${encodeURIComponent(p.name)}?request=${encodeURIComponent(v.handle)}">Sign in with ${esc(p.label)}</a>`)
    .join('');
  return render(
    'Sign in to connect an application',
    `${who(v)}${notice ? `<p class="muted">${esc(notice)}</p>` : ''}
<form class="box" method="post" action="/oauth/authorize/email">${hidden(v.handle)}
<label for="email">Your email address</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="320">
<button type="submit">Email me a sign-in link</button></form>
<form class="box" method="post" action="/oauth/authorize/signin">${hidden(v.handle)}
<label for="token">Already have a code from the email?</label><input id="token" name="token" autocomplete="one-time-code" required maxlength="200">
<button type="submit" class="secondary">Continue</button></form>
${buttons ? `<div class="box">${buttons}</div>` : ''}
<p class="muted">Nothing is shared until you approve on the next page.</p>`,
  );
}

export function checkEmailPage(v: ConsentView): Page {
  return signInPage(v, [], 'If this address belongs to a Rhizome user, a sign-in link is on its way. Open it in this browser, or paste the code from the email below.');
}

export function consentPage(v: ConsentView): Page {
  return render(
    'Connect this application?',
    `${who(v)}<p>You are signed in as <strong>${esc(v.email ?? '')}</strong>.</p>
<form method="post" action="/oauth/authorize/decision">${hidden(v.handle)}
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button></form>
<p class="muted">The application gets a 15-minute access token that it renews for as long as it is used (a renewal token lasts 30 days). Signing out in the application, or a renewal token used twice, ends the access at once.</p>`,
    [redirectCspSource(v.redirectUri)],
  );
}

export function errorPage(title: string, detail: string): Page {
  return render(title, `<p class="error">${esc(detail)}</p>`);
}
