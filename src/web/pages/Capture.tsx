// One capture: status and metadata, its activity timeline and the processing provenance
// (each pipeline stage with timings, the model used and what it produced).
import { Fragment } from 'preact';
import { CaptureActions } from '../components/CaptureActions.js';
import { StageOutput } from '../components/StageOutput.js';
import { useState } from 'preact/hooks';
import { Markdown } from '../components/Markdown.js';
import { Button, Card, PageHead, Problem, Spinner, StatusBadge } from '../components/ui.js';
import { ago, bytes, fullTime, humanize } from '../lib/format.js';
import { useApi } from '../lib/hooks.js';
import type { Activity, Capture, ProvenanceStage } from '../lib/types.js';

const live = (c?: Capture) => c?.status === 'pending' || c?.status === 'processing';

export function CapturePage({ id }: { id: string }) {
  const path = `/captures/${encodeURIComponent(id)}`;
  const cap = useApi<Capture>(path, { pollMs: (d) => (live(d) ? 1500 : null) });
  const activity = useApi<{ data: Activity[] }>(`${path}/activity`, { pollMs: () => (live(cap.data) ? 1500 : null) });
  const prov = useApi<{ stages: ProvenanceStage[] }>(`${path}/provenance`, { pollMs: () => (live(cap.data) ? 2000 : null) });
  const c = cap.data;
  const reloadAll = () => void Promise.all([cap.reload(), activity.reload(), prov.reload()]);

  if (cap.error) return <div class="page"><Problem error={cap.error} onRetry={cap.reload} /></div>;
  if (!c) return <div class="page"><Spinner /></div>;
  const meta = Object.entries(c.metadata ?? {}).filter(([, v]) => v !== null && v !== undefined && v !== '');

  return (
    <div class="page">
      <nav class="crumbs" aria-label="Breadcrumb">
        <a href="#/captures">Captures</a> <span aria-hidden="true">/</span> <span>Capture</span>
      </nav>
      <PageHead
        title={c.title}
        sub={
          <>
            <StatusBadge status={c.status} /> <span class="muted">{c.content_type} · from {c.source ?? 'api'} · captured {ago(c.created_at)}</span>
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
      {c.error && <div class="problem" role="alert"><strong>Processing failed</strong><p>{c.error}</p></div>}
      <div class="node-grid">
        <div class="node-main">
          {c.status === 'completed' && <ProcessedContent id={c.id} />}
          <Card title="Provenance">
            <Problem error={prov.error} title="Provenance is not available" />
            {prov.data && prov.data.stages.length === 0 && <p class="muted">No stage has run yet.</p>}
            {prov.data && prov.data.stages.length > 0 && (
              <ol class="stages">
                {prov.data.stages.map((s, i) => (
                  <li key={s.stage + i} class={s.finished_at ? 'done' : 'running'}>
                    <div class="stage-head">
                      <strong class="cap">{humanize(s.stage)}</strong>
                      {s.model && <code class="model">{s.model}</code>}
                      <span class="muted">{timing(s)}</span>
                    </div>
                    <StageOutput output={s.output} />
                  </li>
                ))}
              </ol>
            )}
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
              {meta.map(([k, v]) => (
                <Fragment key={k}>
                  <dt class="cap">{humanize(k)}</dt>
                  <dd>{/byte/.test(k) && typeof v === 'number' ? bytes(v) : typeof v === 'object' ? JSON.stringify(v) : String(v)}</dd>
                </Fragment>
              ))}
            </dl>
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
                      {detail(a.detail) && <p class="hint">{detail(a.detail)}</p>}
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

function timing(s: ProvenanceStage): string {
  if (!s.started_at) return 'waiting';
  if (!s.finished_at) return 'running…';
  const ms = Date.parse(s.finished_at) - Date.parse(s.started_at);
  return Number.isFinite(ms) ? (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`) : '';
}

function detail(d: unknown): string {
  if (d === null || d === undefined || d === '') return '';
  if (typeof d === 'string') return d;
  if (typeof d === 'object') return Object.entries(d as Record<string, unknown>).map(([k, v]) => `${humanize(k)}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join(' · ');
  return String(d);
}
