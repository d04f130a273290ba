// One capture: status and metadata, its activity timeline and the processing provenance
// (each pipeline stage with timings, the model used and what it produced). The stage panel
// and the timeline are drawn from the same facts (captures/stage-facts.ts).
import { CaptureActions } from '../components/CaptureActions.js';
import { StageOutput } from '../components/StageOutput.js';
import { useState } from 'preact/hooks';
import { Markdown } from '../components/Markdown.js';
import { Button, Card, PageHead, Problem, Spinner, StatusBadge } from '../components/ui.js';
import { CaptureStages } from '../captures/CaptureStages.js';
import { CaptureThumb } from '../captures/CaptureThumb.js';
import { firstLines, hasFavicon, hasImage, siteName } from '../captures/capture-facts.js';
import { NodeName } from '../captures/names.js';
import { ago, fullTime, humanize } from '../lib/format.js';
import { useApi } from '../lib/hooks.js';
import type { Activity, Capture, ProvenanceStage } from '../lib/types.js';
import '../styles/captures.css';

/** Shown with the facts elsewhere on the page, or internal bookkeeping. */
const HIDDEN_META = new Set(['description', 'excerpt', 'site_name', 'image', 'content_sha256', 'origin']);

const live = (c?: Capture) => c?.status === 'pending' || c?.status === 'processing';

export function CapturePage({ id }: { id: string }) {
  const path = `/captures/${encodeURIComponent(id)}`;
  const cap = useApi<Capture>(path, { pollMs: (d) => (live(d) ? 1500 : null) });
  const activity = useApi<{ data: Activity[] }>(`${path}/activity`, { pollMs: () => (live(cap.data) ? 1500 : null) });
  const prov = useApi<{ run: number | null; stages: ProvenanceStage[] }>(`${path}/provenance`, { pollMs: () => (live(cap.data) ? 2000 : null) });
  const c = cap.data;
  const reloadAll = () => void Promise.all([cap.reload(), activity.reload(), prov.reload()]);

  if (cap.error?.status === 404) return <MissingCapture />;
  if (cap.error) return <div class="page"><Problem error={cap.error} onRetry={cap.reload} /><p><a href="#/captures">Back to all captures</a></p></div>;
  if (!c) return <div class="page"><Spinner /></div>;
  const meta = Object.fromEntries(Object.entries(c.metadata ?? {}).filter(([k, v]) => !HIDDEN_META.has(k) && v !== null && v !== undefined && v !== ''));
  const lines = firstLines(c);

  return (
    <div class="page">
      <nav class="crumbs" aria-label="Breadcrumb">
        <a href="#/captures">Captures</a> <span aria-hidden="true">/</span> <span>Capture</span>
      </nav>
      <PageHead
        title={c.title}
        sub={
          <>
            <StatusBadge status={c.status} /> <span class="muted">{siteName(c)} · {c.content_type} · from {c.source ?? 'api'} · captured {ago(c.created_at)}</span>
          </>
        }
        actions={
          <>
            {c.node_id && (
              <a class="btn btn-primary btn-md" href={`#/nodes/${encodeURIComponent(c.node_id)}`}>
                Open node
              </a>
            )}
            <CaptureActions capture={c} onDone={reloadAll} />
          </>
        }
      />
      {c.error && <div class="problem" role="alert"><strong>{c.status === 'failed' ? 'Processing failed' : 'The last attempt failed'}</strong><p>{c.error}</p></div>}
      {(lines || hasImage(c) || hasFavicon(c) || c.node_id) && (
        <div class="cp-hero">
          {(hasImage(c) || hasFavicon(c)) && <CaptureThumb capture={c} />}
          <div>
            {lines && <p class="cc-lines">{lines}</p>}
            {c.node_id && <p class="cp-became">Its node: <NodeName id={c.node_id} /></p>}
          </div>
        </div>
      )}
      <div class="node-grid">
        <div class="node-main">
          {c.status === 'completed' && <ProcessedContent id={c.id} />}
          <Card title="Provenance">
            <Problem error={prov.error} title="Provenance is not available" />
            <Problem error={activity.error} title="The timeline is not available" />
            {prov.data && activity.data && <CaptureStages capture={c} run={prov.data.run} stages={prov.data.stages} activity={activity.data.data} />}
          </Card>
        </div>
        <aside class="node-side">
          <Card title="Details">
            <dl class="facts">
              {c.url && (
                <>
                  <dt>URL</dt>
                  <dd><a href={c.url} target="_blank" rel="noopener noreferrer" class="url">{c.url}</a></dd>
                </>
              )}
              {c.why && (<><dt>Why</dt><dd>{c.why}</dd></>)}
              <dt>Created</dt>
              <dd>{fullTime(c.created_at)}</dd>
              {c.processed_at && (<><dt>Processed</dt><dd>{fullTime(c.processed_at)}</dd></>)}
            </dl>
            <StageOutput output={meta} />
          </Card>
          <Card title="Activity">
            <Problem error={activity.error} title="The timeline is not available" />
            {activity.data && (
              <ol class="timeline">
                {activity.data.data.map((a) => (
                  <li key={a.id}>
                    <span class="dot" aria-hidden="true" />
                    <div>
                      <strong class="cap">{humanize(a.kind)}</strong>
                      <time class="muted" dateTime={a.at} title={fullTime(a.at)}> {ago(a.at)}</time>
                      {eventFacts(a.detail) && <StageOutput output={eventFacts(a.detail)} />}
                    </div>
                  </li>
                ))}
              </ol>
            )}
          </Card>
        </aside>
      </div>
    </div>
  );
}

/** The Markdown the pipeline extracted, fetched only when asked for (it can be long). */
function ProcessedContent({ id }: { id: string }) {
  const [open, setOpen] = useState(false);
  const content = useApi<string>(open ? `/captures/${encodeURIComponent(id)}/content?format=markdown` : null);
  return (
    <Card title="Processed content" actions={<Button size="sm" onClick={() => setOpen(!open)} aria-expanded={open}>{open ? 'Hide' : 'Show'}</Button>}>
      {!open && <p class="muted">The Markdown extracted from this capture.</p>}
      {open && <Problem error={content.error} />}
      {open && !content.data && !content.error && <Spinner />}
      {open && typeof content.data === 'string' && <Markdown source={content.data} />}
    </Card>
  );
}

/** What an activity entry adds beyond its kind (run counters and the model are on the stage panel). */
function eventFacts(d: unknown): Record<string, unknown> | null {
  if (!d || typeof d !== 'object') return null;
  const kept = Object.entries(d as Record<string, unknown>).filter(([k]) => !['run', 'attempt', 'model'].includes(k));
  return kept.length ? Object.fromEntries(kept) : null;
}

/** A capture id that does not exist (deleted, mistyped, another account's): a way back. */
function MissingCapture() {
  return (
    <div class="page">
      <nav class="crumbs" aria-label="Breadcrumb">
        <a href="#/captures">Captures</a>
      </nav>
      <div class="card cp-missing" role="alert">
        <h1>This capture does not exist</h1>
        <p class="muted">It may have been deleted, or the link is mistyped.</p>
        <a class="btn btn-primary btn-md" href="#/captures">Back to all captures</a>
      </div>
    </div>
  );
}
