// The command palette (Ctrl-K / Cmd-K, or the topbar button): type to find a node, ask your notes, create
// one, capture a pasted URL or go to a page; arrows move, Enter runs, Escape closes and
// gives focus back to where it was.
import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, qs } from '../lib/api.js';
import { guessType, asUrl } from '../lib/capture-type.js';
import { asApiError } from '../lib/hooks.js';
import { navigate } from '../lib/router.js';
import { toast } from '../lib/toast.js';
import type { SearchPage } from '../lib/types.js';
import { rankCommands, type Command } from './commands.js';
import '../styles/palette.css';

let openPalette: () => void = () => {};
/** Opens the palette from anywhere (the topbar button). */
export const showPalette = () => openPalette();

export function Palette() {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [nodes, setNodes] = useState<Command[]>([]);
  const [active, setActive] = useState(0);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const live = useRef<{ open: boolean; show: () => void; close: () => void }>({ open: false, show: () => {}, close: () => {} });

  const show = () => {
    returnTo.current = document.activeElement as HTMLElement | null;
    setText('');
    setNodes([]);
    setActive(0);
    setOpen(true);
    live.current.open = true;
  };
  const close = () => {
    setOpen(false);
    live.current.open = false;
    // The page must be interactive again before focus can return to it.
    document.querySelector('.shell')?.removeAttribute('inert');
    returnTo.current?.focus?.();
  };
  openPalette = show;

  // One listener for the page's life; it reads the live state through refs (an effect
  // re-subscribing after each render would miss a key pressed in between).
  live.current = { open: live.current.open, show, close };
  useEffect(() => {
    const on = (e: KeyboardEvent) => {
      const l = live.current;
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        if (l.open) l.close();
        else l.show();
      } else if (l.open && e.key === 'Escape') {
        e.preventDefault();
        l.close();
      }
    };
    window.addEventListener('keydown', on);
    return () => window.removeEventListener('keydown', on);
  }, []);

  // A modal: the page behind is inert (not focusable, not read) while the palette is open.
  // (A key can close it before this effect runs: then nothing is made inert, and focus
  // goes back to where it was if making the page inert had taken it away.)
  useEffect(() => {
    const shell = document.querySelector('.shell');
    const isOpen = open && live.current.open;
    shell?.toggleAttribute('inert', isOpen);
    if (isOpen) requestAnimationFrame(() => input.current?.focus());
    return () => {
      shell?.removeAttribute('inert');
      if (!live.current.open && (document.activeElement === document.body || !document.activeElement)) returnTo.current?.focus?.();
    };
  }, [open]);

  // Nodes matching the text, a moment after typing stops; a stale answer never replaces a newer one.
  const seq = useRef(0);
  useEffect(() => {
    const t = text.trim();
    const mine = ++seq.current;
    if (!open || !t || asUrl(t)) return setNodes([]);
    const timer = setTimeout(async () => {
      try {
        const page = await api.get<SearchPage>('/nodes' + qs({ query: t, mode: 'hybrid', per_page: 6 }));
        if (mine === seq.current) setNodes(page.data.map((n) => ({ id: `node-${n.id}`, group: 'Nodes', label: n.title, hint: n.tags.slice(0, 3).map((x) => '#' + x).join(' '), href: `/nodes/${encodeURIComponent(n.id)}` })));
      } catch {
        if (mine === seq.current) setNodes([]);
      }
    }, 150);
    return () => clearTimeout(timer);
  }, [text, open]);

  if (!open) return null;
  const items = rankCommands(text, nodes);
  const at = Math.min(active, Math.max(0, items.length - 1));

  const run = async (c: Command) => {
    if (c.href) {
      close();
      navigate(c.href);
      return;
    }
    if (c.run === 'new-node') {
      close();
      const t = text.trim();
      navigate('/nodes/new' + (t ? qs({ title: t }) : ''));
      return;
    }
    if (c.run === 'capture-url') {
      const url = asUrl(text);
      if (!url) return;
      setBusy(true);
      try {
        const cap = await api.post<{ id: string }>('/captures', { title: url, url, content_type: guessType(url), source: 'api' });
        toast('Captured — processing in the background');
        close();
        navigate(`/captures/${encodeURIComponent(cap.id)}`);
      } catch (e) {
        toast(asApiError(e).detail || asApiError(e).title, 'error');
      } finally {
        setBusy(false);
      }
    }
  };

  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const n = items.length;
      if (n) setActive((at + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (items[at] && !busy) void run(items[at]);
    } else if (e.key === 'Tab') {
      e.preventDefault(); // focus stays in the dialog: the list is driven by the arrows
    }
  };

  let lastGroup = '';
  return (
    <div class="palette-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div class="palette" role="dialog" aria-modal="true" aria-label="Command palette">
        <label for="palette-input" class="sr-only">
          Search nodes, create, capture or go to a page
        </label>
        <input
          id="palette-input"
          ref={input}
          class="palette-input"
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-activedescendant={items[at] ? `palette-${items[at].id}` : undefined}
          aria-autocomplete="list"
          autocomplete="off"
          placeholder="Find a node, ask a question, paste a URL, or go to…"
          maxLength={500}
          value={text}
          onInput={(e) => {
            setText(e.currentTarget.value);
            setActive(0);
          }}
          onKeyDown={onKey}
        />
        <ul id="palette-list" class="palette-list" role="listbox" aria-label="Commands">
          {items.map((c, i) => {
            const head = c.group !== lastGroup ? (lastGroup = c.group) : null;
            return (
              <Fragment key={c.id}>
                {head && (
                  <li class="palette-group" role="presentation">
                    {head}
                  </li>
                )}
                <li
                  id={`palette-${c.id}`}
                  role="option"
                  aria-selected={i === at}
                  class={`palette-item ${i === at ? 'active' : ''}`}
                  onMouseMove={() => i !== at && setActive(i)}
                  onClick={() => void run(c)}
                >
                  <span class="palette-label">{c.label}</span>
                  {c.hint && <span class="palette-hint">{c.hint}</span>}
                </li>
              </Fragment>
            );
          })}
          {items.length === 0 && <li class="palette-empty">Nothing matches.</li>}
        </ul>
        <p class="palette-foot" aria-hidden="true">
          <kbd class="kbd">↑</kbd> <kbd class="kbd">↓</kbd> move · <kbd class="kbd">Enter</kbd> open · <kbd class="kbd">Esc</kbd> close
        </p>
      </div>
    </div>
  );
}
