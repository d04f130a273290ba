// The Rhizome mark: three linked nodes on the accent colour.
export function Logo({ size }: { size: number }) {
  return (
    <svg viewBox="0 0 32 32" width={size} height={size} aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="var(--accent)" />
      <circle cx="10" cy="20" r="3" fill="#fff" />
      <circle cx="22" cy="11" r="3" fill="#fff" />
      <circle cx="22" cy="23" r="2.5" fill="#fff" />
      <path d="M10 20 22 11M10 20l12 3" stroke="#fff" stroke-width="1.6" />
    </svg>
  );
}
