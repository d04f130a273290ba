// The frame around every signed-in page: brand, navigation, session, skip link.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { Session } from '../lib/session.js';
import { signOut } from '../lib/oidc.js';
import { Logo } from './Logo.js';
import { showPalette } from '../palette/Palette.js';

const NAV = [
  { href: '#/', label: 'Search', active: (p: string) => p === '/' || p === '/search' || p.startsWith('/nodes/') },
  { href: '#/ask', label: 'Ask', active: (p: string) => p === '/ask' },
  { href: '#/graph', label: 'Graph', active: (p: string) => p === '/graph' },
  { href: '#/captures', label: 'Captures', active: (p: string) => p.startsWith('/captures') },
  { href: '#/para', label: 'PARA', active: (p: string) => p === '/para' },
  { href: '#/tags', label: 'Tags', active: (p: string) => p === '/tags' },
  { href: '#/feeds', label: 'Feeds', active: (p: string) => p === '/feeds' },
  { href: '#/import', label: 'Import', active: (p: string) => p === '/import' },
  { href: '#/settings', label: 'Settings', active: (p: string) => p === '/settings' },
];

export function Layout({ path, session, children }: { path: string; session: Session; children: ComponentChildren }) {
  const main = useRef<HTMLElement>(null);
  // Route changes move focus to the page so screen readers announce it; search keeps its box.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (path !== '/') main.current?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, [path]);

  return (
    <div class="shell">
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), main.current?.focus())}>
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href="#/" aria-label="Rhizome home">
          <Logo size={28} />
          <span>Rhizome</span>
        </a>
        <nav class="nav" aria-label="Main">
          {NAV.map((n) => (
            <a key={n.href} href={n.href} class="nav-link" aria-current={n.active(path) ? 'page' : undefined}>
              {n.label}
            </a>
          ))}
        </nav>
        <div class="topbar-end">
          <button type="button" class="btn btn-default btn-sm palette-open" onClick={showPalette} aria-keyshortcuts="Control+K Meta+K" title="Command palette (Ctrl-K / ⌘K)">
            Jump to… <kbd class="kbd" aria-hidden="true">Ctrl K</kbd>
          </button>
          <a class="btn btn-primary btn-sm" href="#/nodes/new">
            New node
          </a>
          <span class="who" title={session.kind === 'apikey' ? 'Signed in with an API key' : 'Signed in by email link'}>
            {session.kind === 'apikey' ? 'Signed in with a key' : 'Signed in by email'}
          </span>
          <button class="btn btn-ghost btn-sm" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1} class="main">
        {children}
      </main>
    </div>
  );
}
