// One search result: title, summary, tags, PARA items and why it matched.
import type { KNode, ParaItem } from '../lib/types.js';
import { ago } from '../lib/format.js';
import { Badge, StatusBadge } from './ui.js';

export function Provenance({ p }: { p: NonNullable<KNode['match_provenance']> }) {
  return (
    <span class="provenance" aria-label={`Matched by ${[p.keyword && 'keyword', p.semantic && 'meaning'].filter(Boolean).join(' and ')}, score ${p.score.toFixed(3)}`}>
      {p.keyword && (
        <Badge tone="keyword" title="The words of your query appear in this node">
          keyword
        </Badge>
      )}
      {p.semantic && (
        <Badge tone="semantic" title="This node is close in meaning to your query">
          semantic
        </Badge>
      )}
      <span class="score" title="Fused relevance score">
        {p.score.toFixed(3)}
      </span>
    </span>
  );
}

/** Where a result opens: at the highlight the query met (the reader scrolls to it), else the node. */
export function resultHref(node: KNode): string {
  const hit = node.annotation_matches?.[0];
  const base = `#/nodes/${encodeURIComponent(node.id)}`;
  return hit ? `${base}/read?highlight=${encodeURIComponent(hit.highlight_id)}` : base;
}

/** Words with the matched spans marked. */
function marked(text: string, spans: [number, number][]): preact.ComponentChildren[] {
  const parts: preact.ComponentChildren[] = [];
  let at = 0;
  spans.forEach(([a, b], i) => {
    if (a > at) parts.push(text.slice(at, a));
    parts.push(<mark key={i}>{text.slice(a, b)}</mark>);
    at = b;
  });
  parts.push(text.slice(at));
  return parts;
}

/** The highlight the query met: its words and, when it has one, the note beside them. */
function AnnotationHit({ a }: { a: NonNullable<KNode['annotation_matches']>[number] }) {
  return (
    <div class="result-annotation" title="Matched in one of your highlights: opens the reader there">
      <span class="result-annotation-label">Your highlight</span>
      <q class="result-annotation-text">{marked(a.text, a.text_matches)}</q>
      {a.note && <span class="result-annotation-note">{marked(a.note, a.note_matches)}</span>}
    </div>
  );
}

/** The highlight worth a line under the title: a match in the title itself is already on screen. */
function snippetOf(node: KNode) {
  return node.highlights?.find((h) => h.field !== 'title');
}

/** Where the query's words matched, with the words marked. */
export function Snippet({ h }: { h: NonNullable<KNode['highlights']>[number] }) {
  return (
    <p class="result-summary result-snippet" title={`Matched in the ${h.field}`}>
      {marked(h.snippet, h.matches)}
    </p>
  );
}

export function NodeCard({ node, para, active, id }: { node: KNode; para: Map<string, ParaItem>; active: boolean; id: string }) {
  return (
    <li class={`result ${active ? 'active' : ''}`} id={id}>
      <a class="result-link" href={resultHref(node)} aria-current={active ? 'true' : undefined}>
        <div class="result-top">
          <h3 class="result-title">{node.title}</h3>
          {node.match_provenance && <Provenance p={node.match_provenance} />}
        </div>
        {snippetOf(node) ? <Snippet h={snippetOf(node)!} /> : !node.annotation_matches && node.summary && <p class="result-summary">{node.summary}</p>}
        {node.annotation_matches?.[0] && <AnnotationHit a={node.annotation_matches[0]} />}
        <div class="result-meta">
          <StatusBadge status={node.status} />
          {node.para_item_ids.map((pid) => (
            <Badge key={pid} tone="para" title={para.get(pid)?.category}>
              {para.get(pid)?.label ?? pid}
            </Badge>
          ))}
          {node.tags.map((t) => (
            <span key={t} class="tag">
              #{t}
            </span>
          ))}
          <span class="result-time" title={node.updated_at}>
            {ago(node.updated_at)}
          </span>
        </div>
      </a>
    </li>
  );
}
