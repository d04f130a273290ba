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

/** The highlight worth a line under the title: a match in the title itself is already on screen. */
function snippetOf(node: KNode) {
  return node.highlights?.find((h) => h.field !== 'title');
}

/** Where the query's words matched, with the words marked. */
export function Snippet({ h }: { h: NonNullable<KNode['highlights']>[number] }) {
  const parts: preact.ComponentChildren[] = [];
  let at = 0;
  h.matches.forEach(([a, b], i) => {
    if (a > at) parts.push(h.snippet.slice(at, a));
    parts.push(<mark key={i}>{h.snippet.slice(a, b)}</mark>);
    at = b;
  });
  parts.push(h.snippet.slice(at));
  return (
    <p class="result-summary result-snippet" title={`Matched in the ${h.field}`}>
      {parts}
    </p>
  );
}

export function NodeCard({ node, para, active, id }: { node: KNode; para: Map<string, ParaItem>; active: boolean; id: string }) {
  return (
    <li class={`result ${active ? 'active' : ''}`} id={id}>
      <a class="result-link" href={`#/nodes/${encodeURIComponent(node.id)}`} aria-current={active ? 'true' : undefined}>
        <div class="result-top">
          <h3 class="result-title">{node.title}</h3>
          {node.match_provenance && <Provenance p={node.match_provenance} />}
        </div>
        {snippetOf(node) ? <Snippet h={snippetOf(node)!} /> : node.summary && <p class="result-summary">{node.summary}</p>}
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
