// The tags field with completion from GET /tags (most used first, with their counts): the
// word being typed after the last comma is completed; arrows move, Enter or Tab picks.
import { useMemo, useState } from 'preact/hooks';
import { useApi } from '../lib/hooks.js';

interface Tag {
  name: string;
  count: number;
}

export function TagInput({ id, value, onInput, describedBy }: { id: string; value: string; onInput: (v: string) => void; describedBy?: string }) {
  const { data } = useApi<{ data: Tag[] }>('/tags');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const parts = value.split(',');
  const word = parts[parts.length - 1].trim().replace(/^#/, '').toLowerCase();
  const chosen = new Set(parts.slice(0, -1).map((p) => p.trim().replace(/^#/, '').toLowerCase()));
  const options = useMemo(
    () => (data?.data ?? []).filter((t) => !chosen.has(t.name.toLowerCase()) && (!word || t.name.toLowerCase().includes(word)) && t.name.toLowerCase() !== word).slice(0, 8),
    [data, value],
  );
  const shown = open && word.length > 0 && options.length > 0;
  const pick = (t: Tag) => {
    onInput([...parts.slice(0, -1).map((p) => p.trim()).filter(Boolean), t.name].join(', ') + ', ');
    setOpen(false);
  };
  const listId = `${id}-options`;
  return (
    <div class="tag-input">
      <input
        id={id}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={shown ? `${listId}-${active}` : undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        value={value}
        placeholder="reading, ideas"
        onInput={(e) => {
          onInput(e.currentTarget.value);
          setOpen(true);
          setActive(0);
        }}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (!shown) return;
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
          } else if (e.key === 'Enter' || e.key === 'Tab') {
            e.preventDefault();
            pick(options[Math.min(active, options.length - 1)]);
          } else if (e.key === 'Escape') setOpen(false);
        }}
      />
      {shown && (
        <ul id={listId} role="listbox" class="tag-options" aria-label="Existing tags">
          {options.map((t, i) => (
            <li key={t.name} id={`${listId}-${i}`} role="option" aria-selected={i === active} class={i === active ? 'on' : ''} onMouseDown={(e) => { e.preventDefault(); pick(t); }}>
              <span>{t.name}</span> <span class="tag-count">{t.count}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
