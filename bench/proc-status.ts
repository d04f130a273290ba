// A field of a process's /proc/<pid>/status (Linux), in kB: VmRSS, RssAnon, RssFile. NaN
// where there is none (another system, a process gone).
import { readFileSync } from 'node:fs';

export function procStatusKb(pid: number | 'self', key: string): number {
  try {
    return Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}
