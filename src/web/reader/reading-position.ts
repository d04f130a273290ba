// Where the reader stopped, per node, in this browser: the share of the article scrolled
// past, saved as they scroll and restored when the article is shown again.
import { useEffect } from 'preact/hooks';

const key = (id: string) => `rhizome.read.${id}`;

export function useReadingPosition(id: string, article: () => HTMLElement | null, ready: boolean): void {
  useEffect(() => {
    if (!ready) return;
    const el = article();
    if (!el) return;
    const saved = Number(localStorage.getItem(key(id)) ?? NaN);
    if (saved > 0) window.scrollTo({ top: el.offsetTop + saved * el.offsetHeight, behavior: 'instant' as ScrollBehavior });
    let timer: number | undefined;
    const save = () => {
      clearTimeout(timer);
      timer = window.setTimeout(() => {
        const share = (window.scrollY - el.offsetTop) / Math.max(1, el.offsetHeight);
        localStorage.setItem(key(id), String(Math.min(1, Math.max(0, share))));
      }, 150);
    };
    window.addEventListener('scroll', save, { passive: true });
    return () => {
      clearTimeout(timer);
      window.removeEventListener('scroll', save);
    };
  }, [id, ready]);
}
