// Settings → API keys: create (the key is shown once, with a copy button), list, revoke.
import { useState } from 'preact/hooks';
import { Button, Card, Empty, Field, PageHead, Problem, Spinner } from '../components/ui.js';
import { api } from '../lib/api.js';
import { bookmarkletHref } from '../lib/bookmarklet.js';
import { Logo } from '../components/Logo.js';
import './bookmarklet.css';
import { ago, fullTime } from '../lib/format.js';
import { useAction, useApi } from '../lib/hooks.js';
import { loadSession } from '../lib/session.js';
import { toast } from '../lib/toast.js';
import type { ApiKey } from '../lib/types.js';

interface Created {
  id: string;
  name: string;
  key: string;
  created_at: string;
}

export function SettingsPage() {
  const keys = useApi<{ data: ApiKey[] }>('/auth/api-keys');
  const [name, setName] = useState('');
  const [created, setCreated] = useState<Created | null>(null);
  const session = loadSession();
  const currentKeyId = session?.kind === 'apikey' ? session.key.split('.')[0] : null;

  const create = useAction(async () => {
    const k = await api.post<Created>('/auth/api-keys', { name: name.trim() });
    setCreated(k);
    setName('');
    void keys.reload();
  });
  const revoke = useAction(async (k: ApiKey) => {
    const own = k.id === currentKeyId;
    if (!confirm(own ? `“${k.name}” is the key this browser is signed in with. Revoke it and sign out?` : `Revoke “${k.name}”? Anything using it stops working at once.`)) return;
    await api.del(`/auth/api-keys/${encodeURIComponent(k.id)}`);
    toast(`“${k.name}” revoked`);
    if (created?.id === k.id) setCreated(null);
    void keys.reload();
  });

  return (
    <div class="page page-narrow">
      <PageHead title="Settings" sub="API keys let the CLI, scripts, the MCP server and the browser extension act on your graph; the bookmarklet saves pages from any browser." />
      <Card title="Create an API key">
        <form class="form-inline" onSubmit={(e) => (e.preventDefault(), void create.run())}>
          <Field label="Name" id="key-name" hint="Where it will be used, e.g. “laptop CLI”.">
            <input id="key-name" required maxLength={200} aria-describedby="key-name-hint" value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </Field>
          <Button type="submit" tone="primary" busy={create.busy}>
            Create key
          </Button>
        </form>
        <Problem error={create.error} />
        {created && <NewKey created={created} onClose={() => setCreated(null)} />}
      </Card>
      <BookmarkletCard />
      <Card title="API keys">
        <Problem error={keys.error ?? revoke.error} onRetry={keys.reload} />
        {!keys.data && !keys.error && <Spinner />}
        {keys.data && keys.data.data.length === 0 && <Empty title="No API keys" />}
        {keys.data && keys.data.data.length > 0 && (
          <div class="table-wrap">
            <table class="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col" class="col-created">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.data.data.map((k) => (
                  <tr key={k.id}>
                    <td>
                      <strong>{k.name}</strong>
                      {k.id === currentKeyId && <span class="badge badge-accent">this browser</span>}
                      <div class="mono muted small">{k.id}</div>
                    </td>
                    <td class="col-created" title={fullTime(k.created_at)}>{ago(k.created_at)}</td>
                    <td title={fullTime(k.last_used_at)}>{k.last_used_at ? ago(k.last_used_at) : 'never'}</td>
                    <td class="right">
                      <Button size="sm" tone="danger" disabled={revoke.busy} onClick={() => void revoke.run(k)} aria-label={`Revoke ${k.name}`}>
                        Revoke
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}

function BookmarkletCard() {
  const href = bookmarkletHref(location.origin);
  return (
    <Card title="Bookmarklet">
      <p class="hint">
        For browsers without the Rhizome extension: drag this button to your bookmarks bar. On any page, click the bookmark to save the page and the
        text you selected in a small Rhizome window. The window signs in with this browser's session; the page you save never sees your key.
      </p>
      <p class="bookmarklet-drag">
        <a
          class="btn btn-primary btn-md bookmarklet-link"
          href={href}
          draggable
          aria-label="Save to Rhizome bookmarklet (drag it to your bookmarks bar)"
          onClick={(e) => (e.preventDefault(), toast('Drag the button to your bookmarks bar, then click it on a page you want to save.'))}
        >
          <Logo size={18} /> Save to Rhizome
        </a>
      </p>
      <Field label="Bookmarklet code" id="bookmarklet-code" hint="Or create a bookmark by hand and paste this as its address.">
        <input id="bookmarklet-code" class="mono" readOnly value={href} aria-describedby="bookmarklet-code-hint" onFocus={(e) => e.currentTarget.select()} />
      </Field>
    </Card>
  );
}

function NewKey({ created, onClose }: { created: Created; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied(true);
      toast('Key copied');
    } catch {
      // Clipboard blocked (insecure origin, permissions): select the text for a manual copy.
      const el = document.getElementById('new-key') as HTMLInputElement | null;
      el?.select();
      toast('Press Ctrl+C (⌘C) to copy the selected key', 'error');
    }
  };
  return (
    <div class="new-key" role="status">
      <p>
        <strong>“{created.name}” created.</strong> Copy the key now — it will not be shown again.
      </p>
      <div class="copy-row">
        <label for="new-key" class="sr-only">
          New API key
        </label>
        <input id="new-key" class="mono" readOnly value={created.key} onFocus={(e) => e.currentTarget.select()} />
        <Button tone="primary" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p class="hint">
        Use it as <code>Authorization: ApiKey …</code> or <code>RHIZOME_TOKEN=…</code>.
      </p>
      <Button size="sm" tone="ghost" onClick={onClose}>
        I have saved it
      </Button>
    </div>
  );
}
