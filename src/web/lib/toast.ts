// Short confirmations ("Link added") announced to screen readers through one live region.
import { useEffect, useState } from 'preact/hooks';

export interface Toast {
  id: number;
  text: string;
  tone: 'ok' | 'error';
}
let toasts: Toast[] = [];
let next = 1;
const subs = new Set<(t: Toast[]) => void>();

export function toast(text: string, tone: Toast['tone'] = 'ok'): void {
  const t = { id: next++, text, tone };
  toasts = [...toasts.slice(-2), t];
  subs.forEach((f) => f(toasts));
  setTimeout(() => dismissToast(t.id), tone === 'error' ? 8000 : 4000);
}

export function dismissToast(id: number): void {
  toasts = toasts.filter((t) => t.id !== id);
  subs.forEach((f) => f(toasts));
}

export function useToasts(): Toast[] {
  const [list, setList] = useState(toasts);
  useEffect(() => {
    subs.add(setList);
    return () => void subs.delete(setList);
  }, []);
  return list;
}
