// Where the machine's CPU went during a run (Linux /proc; null elsewhere): how busy all its
// cores were, and the CPU seconds of the server processes (every thread: the model's too),
// PostgreSQL (its backends and helpers), nginx and this bench (the load generator). On a
// machine whose cores also run the database and the load, this says how much room a second
// server process had: at a fraction B of the cores busy with one process, a second can add
// at most the idle share, so two processes can reach at most ~1/B times one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Linux's USER_HZ: /proc's CPU times are in these ticks. */
const HZ = 100;

export interface CpuUse {
  cores: number;
  seconds: number;
  machine_busy_pct: number;
  /** CPU seconds over the run (of processes that ended during it: none counted). */
  servers_s: number;
  postgres_s: number;
  nginx_s: number;
  load_generator_s: number;
  /** 1 ÷ the busy share: the most more server processes could multiply throughput by, from idle CPU alone. */
  cpu_bound_on_scaling: number;
}

function machine(): { busy: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const total = f.reduce((s, x) => s + x, 0);
  return { busy: total - f[3] - f[4], total };
}

/** Ticks (user + system) of one process and its name, or null once it is gone. */
function ticks(pid: string): { name: string; ticks: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = s.lastIndexOf(')');
    const f = s.slice(close + 2).split(' ');
    return { name: s.slice(s.indexOf('(') + 1, close), ticks: Number(f[11]) + Number(f[12]) };
  } catch {
    return null;
  }
}

function snapshot(): Map<string, { name: string; ticks: number }> {
  const out = new Map<string, { name: string; ticks: number }>();
  for (const pid of readdirSync('/proc')) if (/^\d+$/.test(pid)) {
    const t = ticks(pid);
    if (t) out.set(pid, t);
  }
  return out;
}

/** Starts counting; `stop()` gives the run's figures. */
export function cpuMeter(serverPids: number[]): { stop(): CpuUse | null } | null {
  if (!existsSync('/proc/stat')) return null;
  const began = { at: Date.now(), machine: machine(), procs: snapshot(), self: process.cpuUsage() };
  return {
    stop() {
      const m = machine();
      const procs = snapshot();
      const spent = (pick: (pid: string, name: string) => boolean) => {
        let sum = 0;
        for (const [pid, t] of procs) {
          // A process started during the run (a connection the pool opened) counts whole.
          const before = began.procs.get(pid);
          if (pick(pid, t.name)) sum += before && before.name === t.name ? t.ticks - before.ticks : t.ticks;
        }
        return round(sum / HZ);
      };
      const servers = new Set(serverPids.map(String));
      const self = process.cpuUsage(began.self);
      const busy = (m.busy - began.machine.busy) / Math.max(1, m.total - began.machine.total);
      return {
        cores: availableParallelism(),
        seconds: round((Date.now() - began.at) / 1000),
        machine_busy_pct: Math.round(busy * 100),
        servers_s: spent((pid) => servers.has(pid)),
        postgres_s: spent((_, name) => name === 'postgres'),
        nginx_s: spent((_, name) => name === 'nginx'),
        load_generator_s: round((self.user + self.system) / 1e6),
        cpu_bound_on_scaling: round(1 / Math.max(busy, 0.01)),
      };
    },
  };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
