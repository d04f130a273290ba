// Sign-in: an identity provider (the server lands back here with ?oidc_code= or ?oidc_error=),
// an emailed magic link (the link lands back here with ?token=) or an API key paste.
import { useEffect, useRef, useState } from 'preact/hooks';
import { Button, Field, Problem } from '../components/ui.js';
import { api } from '../lib/api.js';
import { useAction } from '../lib/hooks.js';
import { navigate } from '../lib/router.js';
import { bearerFrom, saveSession, takeSignOutReason } from '../lib/session.js';
import { Logo } from '../components/Logo.js';
import { finishSignIn, forgetLastProvider, lastProvider, listProviders, providerLogoutUrl, startUrl, type OidcProvider } from '../lib/oidc.js';

/** `#/login?oidc_code=…&return_to=…` or `?oidc_error=…`, once: the code is spent on first use. */
function takeOidcParams(): { code: string | null; error: string | null; returnTo: string | null } {
  const q = new URLSearchParams(location.hash.replace(/^#\/login\??/, '').replace(/^#.*/, ''));
  const out = { code: q.get('oidc_code'), error: q.get('oidc_error'), returnTo: q.get('return_to') };
  if (out.code || out.error) history.replaceState(null, '', `${location.pathname}#/login`);
  return out;
}

interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

/** `returnTo`: where to go once signed in (the bookmarklet's window keeps its page). */
export function LoginPage({ token, returnTo }: { token: string | null; returnTo?: string }) {
  const [reason] = useState(takeSignOutReason);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [key, setKey] = useState('');
  const [oidc] = useState(takeOidcParams);
  const [providers, setProviders] = useState<OidcProvider[]>([]);
  const [last] = useState(lastProvider);
  useEffect(() => void listProviders().then(setProviders), []);

  const viaProvider = useAction(async (code: string) => {
    await finishSignIn(code);
    navigate(oidc.returnTo ?? returnTo ?? '/', true);
  });
  const exchanged = useRef(false);
  useEffect(() => {
    if (oidc.code && !exchanged.current) {
      exchanged.current = true;
      void viaProvider.run(oidc.code);
    }
  }, []);
  const providerLogout = reason === 'You signed out.' && last ? providers.find((p) => p.name === last && p.logout) : undefined;

  const verify = useAction(async (t: string) => {
    const pair = await api.post<Tokens>('/auth/magic-link/verify', { token: t }, { anonymous: true });
    saveSession(bearerFrom(pair));
    navigate(returnTo ?? '/', true);
  });
  const started = useRef(false);
  useEffect(() => {
    if (token && !started.current) {
      started.current = true;
      void verify.run(token);
    }
  }, [token]);

  const send = useAction(async () => {
    await api.post('/auth/magic-link', { email: email.trim() }, { anonymous: true });
    setSentTo(email.trim());
  });

  const useKey = useAction(async () => {
    const k = key.trim();
    if (!/^[^.\s]+\.[^.\s]+$/.test(k)) throw new Error('An API key looks like key_id.secret — check that you pasted all of it.');
    // Any authenticated read proves the key; the key list is cheap.
    const res = await fetch('/api/v1/auth/api-keys', { headers: { Authorization: `ApiKey ${k}` } });
    if (!res.ok) throw new Error(res.status === 401 ? 'The server does not accept this key (unknown or revoked).' : `The server answered ${res.status}.`);
    saveSession({ kind: 'apikey', key: k });
    navigate(returnTo ?? '/', true);
  });

  if (oidc.code && !viaProvider.error) {
    return (
      <div class="auth">
        <div class="auth-card" role="status">
          <h1>Signing you in…</h1>
          <p class="muted">Finishing the sign-in with your identity provider.</p>
        </div>
      </div>
    );
  }

  if (token && !verify.error) {
    return (
      <div class="auth">
        <div class="auth-card" role="status">
          <h1>Signing you in…</h1>
          <p class="muted">Checking your sign-in link.</p>
        </div>
      </div>
    );
  }

  return (
    <div class="auth">
      <div class="auth-card">
        <div class="auth-brand">
          <Logo size={40} />
          <h1>Sign in to Rhizome</h1>
        </div>
        {reason && <p class="notice">{reason}</p>}
        {verify.error && <Problem error={verify.error} title="This sign-in link did not work" />}
        {viaProvider.error && <Problem error={viaProvider.error} title="The sign-in did not work" />}
        {oidc.error && (
          <p class="notice" role="alert">
            {oidc.error}
          </p>
        )}
        {providerLogout && (
          <p class="notice">
            <a href={providerLogoutUrl(providerLogout.name)} onClick={forgetLastProvider}>Also sign out of {providerLogout.label}</a>
          </p>
        )}

        {providers.some((p) => p.available) && (
          <>
            <section aria-labelledby="by-provider" style={{ display: 'grid', gap: '0.5rem' }}>
              <h2 id="by-provider" class="sr-only">Sign in with an identity provider</h2>
              {providers
                .filter((p) => p.available)
                .map((p) => (
                  <a key={p.name} class="btn btn-primary btn-md auth-provider" href={startUrl(p, returnTo?.replace(/^#/, ''))}>
                    Sign in with {p.label}
                  </a>
                ))}
            </section>
            <div class="divider" role="separator">
              <span>or</span>
            </div>
          </>
        )}

        <section aria-labelledby="by-email">
          <h2 id="by-email">Email me a sign-in link</h2>
          {sentTo ? (
            <div class="notice notice-ok" role="status">
              <p>
                If <strong>{sentTo}</strong> has an account, a sign-in link is on its way. It works once and expires in 15 minutes.
              </p>
              <p class="muted">No mail server configured? The link is written to the server's log.</p>
              <Button size="sm" tone="ghost" onClick={() => setSentTo(null)}>
                Use another address
              </Button>
            </div>
          ) : (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void send.run();
              }}
            >
              <Field label="Email" id="login-email">
                <input id="login-email" type="email" autocomplete="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
              </Field>
              <Problem error={send.error} />
              <Button type="submit" tone="primary" busy={send.busy}>
                Send link
              </Button>
            </form>
          )}
        </section>

        <div class="divider" role="separator">
          <span>or</span>
        </div>

        <section aria-labelledby="by-key">
          <h2 id="by-key">Use an API key</h2>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void useKey.run();
            }}
          >
            <Field label="API key" id="login-key" hint={<>The key printed when the server first started (also in <code>data/credentials</code>).</>}>
              <input
                id="login-key"
                type="password"
                autocomplete="off"
                spellcheck={false}
                required
                aria-describedby="login-key-hint"
                placeholder="key_….secret"
                value={key}
                onInput={(e) => setKey(e.currentTarget.value)}
              />
            </Field>
            <Problem error={useKey.error} />
            <Button type="submit" busy={useKey.busy}>
              Sign in with key
            </Button>
          </form>
        </section>
      </div>
    </div>
  );
}
