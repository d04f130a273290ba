// `#/bookmarklet?url=&title=&selection=`: the page the bookmarklet opens in a popup window.
// It saves the capture with the dashboard's own session, so the API key never reaches the
// page being saved. Saving always takes a click here: a site that opens this address itself
// cannot create captures (and the dashboard cannot be framed, so the click is the user's).
import { useEffect, useState } from 'preact/hooks';
import { guessUrlContentType } from '../../client/capture-kind.js';
import { CAPTURE_CONTENT_TYPES } from '../../schemas/enums.js';
import { Logo } from '../components/Logo.js';
import { Button, Field, Problem, StatusBadge } from '../components/ui.js';
import { api, ApiError } from '../lib/api.js';
import { useAction } from '../lib/hooks.js';
import './bookmarklet.css';

interface CaptureView {
  id: string;
  status: string;
  node_id: string | null;
  error: string | null;
}

function httpUrl(raw: string | null): string | null {
  try {
    const u = new URL(raw ?? '');
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

const parseTags = (s: string) => [...new Set(s.split(",").map((t) => t.trim().replace(/^#/, "").slice(0, 100)).filter(Boolean))].slice(0, 50);

async function followCapture(id: string, onChange: (c: CaptureView) => void): Promise<CaptureView> {
  for (let wait = 400; ; wait = Math.min(wait * 1.5, 3000)) {
    const c = await api.get<CaptureView>(`/captures/${encodeURIComponent(id)}`);
    onChange(c);
    if (c.status !== 'pending' && c.status !== 'processing') return c;
    await new Promise((r) => setTimeout(r, wait));
  }
}

export function BookmarkletPage({ query }: { query: URLSearchParams }) {
  const url = httpUrl(query.get('url'));
  const selection = (query.get('selection') ?? '').trim();
  const [title, setTitle] = useState((query.get('title') ?? '').trim().slice(0, 500) || url || '');
  const [type, setType] = useState<string>(url ? guessUrlContentType(url) : 'article');
  const [why, setWhy] = useState('');
  const [tags, setTags] = useState('');
  const [already, setAlready] = useState<CaptureView | null>(null);
  const [capture, setCapture] = useState<CaptureView | null>(null);

  useEffect(() => {
    if (!url) return;
    api.get<CaptureView>(`/captures/check?url=${encodeURIComponent(url)}`).then(setAlready, () => setAlready(null));
  }, [url]);

  const save = useAction(async () => {
    const created = await api.post<{ id: string }>('/captures', {
      title: title.trim() || url,
      url,
      content_type: type,
      why: why.trim() || undefined,
      selected_text: selection || undefined,
      tags: parseTags(tags),
      source: 'browser-extension',
    });
    await followCapture(created.id, setCapture);
  });

  if (!url) {
    return (
      <div class="bm">
        <Head />
        <Problem error={new ApiError(400, 'validation_failed', 'Nothing to save', 'This window was opened without the address of a web page (http or https).')} />
      </div>
    );
  }
  const finished = capture && capture.status !== 'pending' && capture.status !== 'processing' && !save.busy;
  return (
    <div class="bm">
      <Head />
      {already && (
        <p class="bm-note">
          Already saved <StatusBadge status={already.status} /> ·{' '}
          <a href={`#/captures/${encodeURIComponent(already.id)}`} target="_blank" rel="noopener">
            open in Rhizome
          </a>
        </p>
      )}
      <form onSubmit={(e) => (e.preventDefault(), void save.run())}>
        <Field label="Title" id="bm-title">
          <input id="bm-title" required maxLength={500} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
        </Field>
        <p class="bm-url">{url}</p>
        <div class="bm-row">
          <Field label="Type" id="bm-type">
            <select id="bm-type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
              {CAPTURE_CONTENT_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Tags" id="bm-tags">
            <input id="bm-tags" placeholder="reading, ideas" value={tags} onInput={(e) => setTags(e.currentTarget.value)} />
          </Field>
        </div>
        <Field label="Why are you saving this?" id="bm-why">
          <textarea id="bm-why" rows={2} maxLength={10_000} value={why} onInput={(e) => setWhy(e.currentTarget.value)} />
        </Field>
        {selection && (
          <blockquote class="bm-quote" aria-label="Selected text">
            {selection}
          </blockquote>
        )}
        <div class="bm-actions">
          <Button type="submit" tone="primary" busy={save.busy} disabled={!!finished && capture?.status !== 'failed'}>
            {finished && capture?.status === 'completed' ? 'Saved' : 'Save'}
          </Button>
          {finished && (
            <Button tone="ghost" onClick={() => window.close()}>
              Close window
            </Button>
          )}
        </div>
      </form>
      <Problem error={save.error} />
      {capture && (
        <div class="bm-done" role="status">
          <StatusBadge status={capture.status} />
          {capture.status === 'failed' && <span>{capture.error}</span>}
          {capture.node_id && (
            <a href={`#/nodes/${encodeURIComponent(capture.node_id)}`} target="_blank" rel="noopener">
              Open node
            </a>
          )}
          <a href={`#/captures/${encodeURIComponent(capture.id)}`} target="_blank" rel="noopener">
            Capture
          </a>
        </div>
      )}
    </div>
  );
}

function Head() {
  return (
    <div class="bm-head">
      <Logo size={24} />
      <h1>Save to Rhizome</h1>
    </div>
  );
}
