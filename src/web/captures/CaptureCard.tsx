// One capture as a card: picture, site, title, first lines, status, and the node it became.
import { CaptureActions } from '../components/CaptureActions.js';
import { StatusBadge } from '../components/ui.js';
import { ago, fullTime } from '../lib/format.js';
import type { Capture } from '../lib/types.js';
import { firstLines, siteName } from './capture-facts.js';
import { CaptureThumb, SiteIcon } from './CaptureThumb.js';

export function CaptureCard({ capture: c, onChanged }: { capture: Capture; onChanged: () => void }) {
  const lines = firstLines(c);
  return (
    <li class={`cc-card cc-${c.status}`} data-capture-id={c.id}>
      <CaptureThumb capture={c} />
      <div class="cc-body">
        <div class="cc-site">
          <SiteIcon capture={c} />
          <span class="cc-site-name">{siteName(c)}</span>
          <span class="cc-kind">{c.content_type}</span>
        </div>
        <a href={`#/captures/${encodeURIComponent(c.id)}`} class="cc-title">
          {c.title}
        </a>
        {lines && <p class="cc-lines">{lines}</p>}
        {c.status === 'failed' && c.error && <p class="cc-error">{c.error}</p>}
        <div class="cc-foot">
          <StatusBadge status={c.status} />
          <time class="cc-time" dateTime={c.created_at} title={fullTime(c.created_at)}>{ago(c.created_at)}</time>
          {c.node_id && (
            <a class="cc-node" href={`#/nodes/${encodeURIComponent(c.node_id)}`}>
              Open node
            </a>
          )}
        </div>
        <CaptureActions capture={c} compact onDone={onChanged} />
      </div>
    </li>
  );
}
