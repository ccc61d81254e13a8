/**
 * Whether `pid` is certainly no running process of this host: the kernel answers ESRCH to a probe (`kill(pid, 0)`).
 * False whenever that is not certain: this process, a pid that is not a positive integer (0 and negatives name
 * process groups), a process of another user (EPERM) or any other answer. Whoever removes what a process left behind
 * (its lease, its browser profile) asks this, so that nothing still in use is taken from a live process.
 */
export function isProcessGone(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
