// Who holds a job's lease: this process, named so that a process starting on the same
// machine can tell a dead predecessor from a live neighbour. `host/pid-namespace/pid/tag`:
// the random tag because pids are reused. Only a holder on this host, in this pid namespace
// (not another container's), whose pid no longer exists is known dead; any other holder
// keeps its jobs until its lease expires.
import { randomBytes } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

function pidNamespace(): string {
  try {
    return readlinkSync('/proc/self/ns/pid').replace(/[^0-9]/g, '') || '-';
  } catch {
    return '-'; // not Linux: no process is ever judged dead here, leases expire instead
  }
}

const HERE = `${hostname()}/${pidNamespace()}`;

/** This process as a lease holder. */
export const PROCESS_OWNER = `${HERE}/${process.pid}/${randomBytes(4).toString('hex')}`;

/** True when the holder was a process of this machine and pid namespace that no longer runs. */
export function isDeadHere(owner: string): boolean {
  const cut = owner.lastIndexOf('/');
  const rest = owner.slice(0, cut);
  const at = rest.lastIndexOf('/');
  if (cut < 0 || at < 0 || rest.slice(0, at) !== HERE || HERE.endsWith('/-')) return false;
  const pid = Number(rest.slice(at + 1));
  if (!Number.isSafeInteger(pid) || pid <= 0 || owner === PROCESS_OWNER) return false;
  try {
    process.kill(pid, 0);
    return false; // alive (or its pid reused: then we wait for the lease, the safe side)
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
