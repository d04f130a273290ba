// The dashboard's building blocks: one look for buttons, badges, problems and empty states.
import type { ButtonHTMLAttributes, ComponentChildren } from 'preact';
import type { ApiError } from '../lib/api.js';
import { dismissToast, useToasts } from '../lib/toast.js';

type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'size'> & {
  tone?: 'primary' | 'default' | 'danger' | 'ghost';
  size?: 'sm' | 'md';
  busy?: boolean;
  type?: 'button' | 'submit';
  disabled?: boolean;
};

export function Button({ tone = 'default', size = 'md', busy, children, type = 'button', disabled, ...rest }: ButtonProps) {
  return (
    <button {...rest} type={type} class={`btn btn-${tone} btn-${size} ${rest.class ?? ''}`} disabled={disabled || busy} aria-busy={busy || undefined}>
      {busy && <span class="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}

/** The API's problem+json, shown as the server phrased it. */
export function Problem({ error, title, onRetry }: { error: ApiError | null | undefined; title?: string; onRetry?: () => void }) {
  if (!error) return null;
  const missing = error.status === 404 && /^Route /.test(error.detail);
  return (
    <div class={`problem ${missing ? 'problem-soft' : ''}`} role="alert">
      <div class="problem-head">
        <strong>{title ?? (missing ? 'Not available on this server yet' : error.title)}</strong>
        {error.status > 0 && <span class="problem-status">{error.status}{error.code ? ` · ${error.code}` : ''}</span>}
      </div>
      {error.detail && <p>{error.detail}</p>}
      {error.errors.length > 0 && (
        <ul>
          {error.errors.map((e) => (
            <li key={e.path + e.message}>
              <code>{e.path || 'body'}</code> {e.message}
            </li>
          ))}
        </ul>
      )}
      {onRetry && (
        <Button size="sm" onClick={onRetry}>
          Try again
        </Button>
      )}
    </div>
  );
}

export function Badge({ tone = 'neutral', children, title }: { tone?: string; children: ComponentChildren; title?: string }) {
  return (
    <span class={`badge badge-${tone}`} title={title}>
      {children}
    </span>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={`status-${status}`}>{status}</Badge>;
}

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div class="loading" role="status">
      <span class="spinner" aria-hidden="true" />
      <span>{label}…</span>
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children && <div class="empty-body">{children}</div>}
    </div>
  );
}

export function Card({ title, actions, children, class: cls }: { title?: ComponentChildren; actions?: ComponentChildren; children: ComponentChildren; class?: string }) {
  return (
    <section class={`card ${cls ?? ''}`}>
      {(title || actions) && (
        <header class="card-head">
          {title && <h2 class="card-title">{title}</h2>}
          {actions && <div class="card-actions">{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}

export function PageHead({ title, sub, actions }: { title: ComponentChildren; sub?: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <header class="page-head">
      <div>
        <h1>{title}</h1>
        {sub && <p class="page-sub">{sub}</p>}
      </div>
      {actions && <div class="page-actions">{actions}</div>}
    </header>
  );
}

export function Field({ label, hint, id, children }: { label: string; hint?: ComponentChildren; id: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children}
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

export function Toasts() {
  const list = useToasts();
  return (
    <div class="toasts" aria-live="polite" aria-atomic="false">
      {list.map((t) => (
        <div key={t.id} class={`toast toast-${t.tone}`} role={t.tone === 'error' ? 'alert' : 'status'}>
          <span>{t.text}</span>
          <button class="toast-close" aria-label="Dismiss" onClick={() => dismissToast(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
