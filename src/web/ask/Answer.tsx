// An answer as read: its text with each [n] a link to the passage it cites, the numbered
// citations under it, or, when the notes do not say, the nearest notes as "maybe related".
import type { Citation } from './ask-stream.js';
import { citationHref } from './ask-stream.js';
import { shownText } from './mark-passage.js';
import { splitAtCitations } from '../../schemas/citation-markers.js';

const PASSAGE_CHARS = 320;

export function AnswerText({ text, citations }: { text: string; citations: Citation[] }) {
  return (
    <p class="ask-answer-text">
      {splitAtCitations(text).map((p, i) => {
        if ('text' in p) return shownText(p.text);
        return (
          <sup key={i} class="ask-cites">
            {p.cites.map((n) => {
              const c = citations[n - 1];
              return c ? (
                <a key={n} class="ask-cite" href={citationHref(c)} aria-label={`Citation ${n}: ${c.title}`}>
                  {n}
                </a>
              ) : (
                <span key={n} class="ask-cite">{n}</span>
              );
            })}
          </sup>
        );
      })}
    </p>
  );
}

export function CitationList({ citations }: { citations: Citation[] }) {
  if (!citations.length) return null;
  return (
    <ol class="ask-citations" aria-label="Citations">
      {citations.map((c, i) => {
        const text = shownText(c.passage).replace(/\s+/g, ' ').trim();
        return (
          <li key={`${c.node_id}-${c.start}`} class="ask-citation">
            <span class="ask-citation-n" aria-hidden="true">{i + 1}</span>
            <div>
              <a class="ask-citation-title" href={citationHref(c)}>{c.title}</a>
              <blockquote class="ask-citation-passage">{text.length > PASSAGE_CHARS ? `${text.slice(0, PASSAGE_CHARS - 1)}…` : text}</blockquote>
            </div>
          </li>
        );
      })}
    </ol>
  );
}

export function MaybeRelated({ notes }: { notes: Array<{ node_id: string; title: string }> }) {
  if (!notes.length) return null;
  return (
    <div class="ask-related">
      <h2>Maybe related</h2>
      <p class="muted">The nearest notes. They do not answer the question; they may be worth a look.</p>
      <ul>
        {notes.map((n) => (
          <li key={n.node_id}>
            <a href={`#/nodes/${encodeURIComponent(n.node_id)}`}>{n.title}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}
