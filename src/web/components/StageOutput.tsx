// What a pipeline stage produced, for a reader: human labels, dates and sizes formatted,
// node and PARA ids shown as the names they stand for (linked), nested facts as nested
// lists. Never raw JSON, never a bare id.
import { Fragment, type ComponentChildren } from 'preact';
import { NodeName, ParaName, looksLikeId } from '../captures/names.js';
import { bytes, duration, fullTime, humanize } from '../lib/format.js';
import { STAGE_LABELS, type StageName } from '../captures/stage-facts.js';

const LABELS: Record<string, string> = {
  origin: 'Source', url: 'Address', final_url: 'Landed on', http_status: 'HTTP status', content_type: 'Served as', detected_mime: 'Detected type',
  redirects: 'Redirects', byte_size: 'Size', body: 'Body', filename: 'File', mime: 'Type', kind: 'Kind', title: 'Title', chars: 'Characters',
  word_count: 'Words', page_count: 'Pages', site_name: 'Site', og_type: 'Page type', published_at: 'Published', canonical_url: 'Canonical address',
  image: 'Preview image', description: 'Description', excerpt: 'Excerpt', readable: 'Readable article', preview: 'First lines', language: 'Language',
  duration_seconds: 'Duration', summary: 'Summary', sentences_considered: 'Sentences considered', picked: 'Sentences picked', endpoint: 'Model server',
  llm_error: 'Language model', embedder_error: 'Embedding model', note: 'Note', tags: 'Tags', user_tags: 'Your tags', reused: 'Reused tags',
  vocabulary_size: 'Tags known', dimension: 'Vector size', nearest: 'Nearest nodes', stored: 'Stored', error: 'Problem', active_items: 'Active PARA items',
  decision: 'Filed under', candidates: 'Candidates', suggestions: 'Suggested links', similarity: 'Similarity', score: 'Score',
  node_id: 'Node', item_id: 'PARA item', stage: 'Stage', run: 'Run', attempt: 'Attempt', max_attempts: 'Attempts allowed', retry_in_ms: 'Next try in',
  model: 'Model', reason: 'Reason', node: 'The node was', kept_image: 'Kept preview image', kept_favicon: 'Kept site icon', images_skipped: 'Pictures not kept',
  document_title: 'Document title', user_tags_note: 'Note', link_from: 'Linked from',
};

const ORIGINS: Record<string, string> = {
  url: 'fetched from the web', upload: 'an uploaded file', raw_content: 'the page as the browser saw it', selected_text: 'the selected text', note: 'a note',
};

const label = (k: string) => LABELS[k] ?? humanize(k).replace(/^./, (c) => c.toUpperCase());
const isIsoDate = (s: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(s);
const percent = (n: number) => `${Math.round(n * 100)}%`;

function scalar(key: string, v: unknown): ComponentChildren {
  if (v === null || v === undefined || v === '') return <span class="muted">none</span>;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'number') {
    if (/byte/.test(key)) return bytes(v);
    if (key === 'duration_seconds') return duration(Math.round(v));
    if (key === 'similarity' || key === 'score') return percent(v);
    if (key === 'retry_in_ms') return `${Math.round(v / 1000)} s`;
    return Number.isInteger(v) ? v.toLocaleString() : v.toFixed(3);
  }
  const s = String(v);
  if (key === 'origin') return ORIGINS[s] ?? humanize(s);
  if (/^https?:\/\//i.test(s)) return <a href={s} target="_blank" rel="noopener noreferrer" class="url">{s}</a>;
  if (isIsoDate(s)) return <time dateTime={s}>{fullTime(s)}</time>;
  if (looksLikeId(s)) {
    if (s.startsWith('nod_')) return <NodeName id={s} />;
    if (s.startsWith('par_')) return <ParaName id={s} />;
    return <span class="muted">(internal reference)</span>;
  }
  if (key === 'stage' && STAGE_LABELS[s as StageName]) return STAGE_LABELS[s as StageName];
  return s;
}

/** A node or PARA reference with its score, as a phrase. */
function reference(o: Record<string, unknown>): ComponentChildren | null {
  const score = typeof o.similarity === 'number' ? o.similarity : typeof o.score === 'number' ? o.score : null;
  const tail = score !== null ? <span class="muted"> · {percent(score)} match</span> : null;
  if (typeof o.node_id === 'string') return <>{<NodeName id={o.node_id} title={typeof o.title === 'string' ? o.title : undefined} />}{tail}</>;
  if (typeof o.item_id === 'string') return <>{<ParaName id={o.item_id} label={typeof o.label === 'string' ? o.label : undefined} />}{tail}</>;
  return null;
}

function value(key: string, v: unknown, depth: number): ComponentChildren {
  if (v === null || typeof v !== 'object') return scalar(key, v);
  if (Array.isArray(v)) {
    if (v.length === 0) return <span class="muted">none</span>;
    if (key === 'picked' && v.every((x) => typeof x === 'number')) return v.map((n) => Number(n) + 1).join(', ');
    if (v.every((x) => x === null || typeof x !== 'object')) return v.map((x, i) => <Fragment key={i}>{i > 0 && ', '}{scalar(key, x)}</Fragment>);
    return (
      <ul>
        {v.slice(0, 12).map((item, i) => <li key={i}>{value(key, item, depth + 1)}</li>)}
        {v.length > 12 && <li class="muted">…and {v.length - 12} more</li>}
      </ul>
    );
  }
  const o = v as Record<string, unknown>;
  const ref = reference(o);
  if (ref) return ref;
  if (depth > 2) return <span class="muted">more detail</span>;
  return <Facts output={o} depth={depth + 1} />;
}

function Facts({ output, depth }: { output: Record<string, unknown>; depth: number }) {
  const entries = Object.entries(output).filter(([, v]) => !(typeof v === 'string' && looksLikeId(v) && !/^(nod|par)_/.test(v)));
  if (entries.length === 0) return null;
  return (
    <dl class={depth === 0 ? 'cp-kv cp-kv-top' : 'cp-kv'}>
      {entries.map(([k, v]) => (
        <Fragment key={k}>
          <dt>{label(k)}</dt>
          <dd>{value(k, v, depth)}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

export function StageOutput({ output }: { output: unknown }) {
  if (output === null || output === undefined || output === '') return null;
  if (typeof output === 'string') return <p class="stage-output">{output}</p>;
  if (typeof output !== 'object' || Array.isArray(output)) return <div class="stage-output">{value('', output, 0)}</div>;
  return <Facts output={output as Record<string, unknown>} depth={0} />;
}
