// Import and export: a vault zip or a bookmark file goes up, the run is followed until it
// ends (counts and problems as the API reports them); the whole graph comes down as a
// Markdown zip or one JSON document.
import { useEffect, useState } from 'preact/hooks';
import { Button, Card, PageHead, Problem, StatusBadge } from '../components/ui.js';
import { api, request, type ApiError } from '../lib/api.js';
import { toast } from '../lib/toast.js';

interface ImportRun {
  id: string;
  kind: 'markdown' | 'bookmarks';
  status: 'running' | 'completed' | 'failed' | 'interrupted';
  counts: Record<string, number>;
  problems: Array<{ path: string; kind: string; detail: string }>;
  error: string | null;
}

const COUNT_LABELS: Array<[string, string]> = [
  ['total', 'in the file'], ['created', 'created'], ['updated', 'updated'], ['skipped', 'skipped'], ['failed', 'failed'],
  ['unresolved_links', 'unresolved links'], ['para_items_created', 'PARA items created'], ['links_set', 'links set'], ['attachments_captured', 'attachments captured'],
];

function RunReport({ id }: { id: string }) {
  const [run, setRun] = useState<ImportRun | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    let stop = false;
    const poll = async () => {
      try {
        const r = await api.get<ImportRun>(`/imports/${encodeURIComponent(id)}`);
        if (stop) return;
        setRun(r);
        if (r.status === 'running') setTimeout(poll, 800);
      } catch (e) {
        if (!stop) setError(e as ApiError);
      }
    };
    void poll();
    return () => { stop = true; };
  }, [id]);
  if (error) return <Problem error={error} />;
  if (!run) return <p>Starting…</p>;
  return (
    <div class="import-run" data-status={run.status}>
      <p>
        Import <code>{run.id}</code> <StatusBadge status={run.status} />
      </p>
      <ul class="import-counts">
        {COUNT_LABELS.filter(([k]) => run.counts[k] !== undefined && (k === 'total' || run.counts[k] > 0 || k === 'created')).map(([k, label]) => (
          <li key={k}>
            <strong>{run.counts[k]}</strong> {label}
          </li>
        ))}
      </ul>
      {run.error && <p class="error">{run.error}</p>}
      {run.problems.length > 0 && (
        <details open={run.problems.length <= 10}>
          <summary>{run.problems.length} problem(s)</summary>
          <ul class="import-problems">
            {run.problems.map((p, i) => (
              <li key={i}>
                <code>{p.path || '(archive)'}</code>: {p.detail}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

function UploadForm({ kind, accept, hint }: { kind: 'markdown' | 'bookmarks'; accept: string; hint: string }) {
  const [file, setFile] = useState<File | null>(null);
  const [paraFromFolders, setPara] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [runId, setRunId] = useState<string | null>(null);
  const start = async () => {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      const form = new FormData();
      form.append('file', file, file.name);
      if (kind === 'markdown' && paraFromFolders) form.append('para_from_folders', 'true');
      const r = await request<{ id: string; format?: string }>('POST', `/imports/${kind}`, form);
      setRunId(r.id);
      if (r.format) toast(`Recognised ${r.format}`);
    } catch (e) {
      setError(e as ApiError);
    } finally {
      setBusy(false);
    }
  };
  const id = `import-${kind}`;
  return (
    <div>
      <p class="muted">{hint}</p>
      <label for={id}>{kind === 'markdown' ? 'Vault (.zip)' : 'Bookmark file'}</label>
      <input id={id} type="file" accept={accept} onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
      {kind === 'markdown' && (
        <p>
          <label class="inline-field">
            <input type="checkbox" checked={paraFromFolders} onChange={(e) => setPara(e.currentTarget.checked)} /> Projects/, Areas/, Resources/, Archive/ folders become PARA items
          </label>
        </p>
      )}
      <p>
        <Button tone="primary" busy={busy} disabled={!file} onClick={() => void start()}>
          {kind === 'markdown' ? 'Import vault' : 'Import bookmarks'}
        </Button>
      </p>
      <Problem error={error} />
      {runId && <RunReport key={runId} id={runId} />}
    </div>
  );
}

async function download(path: string, fallbackName: string): Promise<void> {
  const res = await request<Response>('GET', path, undefined, { raw: true });
  const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await res.blob());
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function ImportPage() {
  const [error, setError] = useState<ApiError | null>(null);
  const get = (path: string, name: string) => download(path, name).catch((e) => setError(e as ApiError));
  return (
    <div class="page">
      <PageHead title="Import and export" sub="Bring a Markdown vault or your bookmarks in; take everything out." />
      <Card title="Markdown vault">
        <UploadForm kind="markdown" accept=".zip,application/zip" hint="A zip of a folder of .md notes (Obsidian, Logseq, Foam...). Importing the same vault again updates the same nodes." />
      </Card>
      <Card title="Bookmarks">
        <UploadForm kind="bookmarks" accept=".html,.htm,.csv,.json" hint="Netscape bookmark HTML (any browser's export), Pocket CSV, Omnivore, Karakeep or Linkwarden JSON. Each becomes a URL capture; URLs already captured are skipped." />
      </Card>
      <Card title="Export">
        <p class="muted">Every node as a Markdown file with YAML front matter in PARA folders, or everything as one JSON document.</p>
        <Button onClick={() => void get('/exports/markdown', 'rhizome-export.zip')}>Download Markdown (.zip)</Button>{' '}
        <Button onClick={() => void get('/exports/json', 'rhizome-export.json')}>Download JSON</Button>
        <Problem error={error} />
      </Card>
    </div>
  );
}
