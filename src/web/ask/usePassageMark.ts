// On a node's page opened from a citation (`#/nodes/{id}?passage=start-end`): the cited
// passage of its body marked and scrolled to the middle of the screen.
import { useEffect } from 'preact/hooks';
import { markPassage } from './mark-passage.js';

export function parsePassage(v: string | null | undefined): { start: number; end: number } | null {
  const m = /^(\d{1,9})-(\d{1,9})$/.exec(v ?? '');
  if (!m) return null;
  const [start, end] = [Number(m[1]), Number(m[2])];
  return end > start ? { start, end } : null;
}

export function usePassageMark(passage: string | null | undefined, body: string | undefined, editing: boolean): void {
  useEffect(() => {
    const span = parsePassage(passage);
    if (!span || !body || editing) return;
    const root = document.querySelector<HTMLElement>('.page-node .prose');
    if (!root) return;
    for (const m of root.querySelectorAll('mark.ask-passage')) m.replaceWith(...m.childNodes);
    const first = markPassage(root, body.slice(span.start, span.end));
    if (first) {
      first.setAttribute('tabindex', '-1');
      first.scrollIntoView({ block: 'center' });
      first.focus({ preventScroll: true });
    }
  }, [passage, body, editing]);
}
