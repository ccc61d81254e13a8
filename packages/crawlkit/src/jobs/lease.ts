import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * A lease owner id that says where it runs: `<host>/<pid>/<uuid>`. The uuid keeps two engines of one process apart;
 * host and pid let another process of the same host tell that the owner has died.
 */
export function leaseOwnerId(): string {
  return `${hostname()}/${process.pid}/${randomUUID()}`;
}

/**
 * Whether `owner` (a `leaseOwnerId()`) is a process of this host that no longer exists. False whenever that is not
 * certain (another host, this process, a foreign id, a pid that exists or cannot be probed): such a lease is left to
 * expire instead.
 */
export function isDeadLocalOwner(owner: string): boolean {
  const [host, pidText, id] = owner.split('/');
  if (!id || host !== hostname()) return false;
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
