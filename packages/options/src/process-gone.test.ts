import { spawn } from 'node:child_process';
import { once } from 'node:events';

import { describe, expect, it } from 'vitest';

import { isProcessGone } from './process-gone.js';

describe('isProcessGone', () => {
  it('is true for a process that exited, false while it runs', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    await once(child, 'spawn');
    const pid = child.pid!;
    expect(isProcessGone(pid)).toBe(false);
    child.kill('SIGKILL');
    await once(child, 'exit');
    // Reaped by Node on exit: the pid names no process now (a reuse within these lines is not a concern).
    expect(isProcessGone(pid)).toBe(true);
  });

  it('is false for this process, and for pids that name process groups or none', () => {
    expect(isProcessGone(process.pid)).toBe(false);
    for (const pid of [0, -1, -process.pid, 1.5, Number.NaN, Number.MAX_VALUE]) expect(isProcessGone(pid)).toBe(false);
  });

  it("is false for pid 1, alive (and, unless this runs as root, another user's: EPERM)", () => {
    expect(isProcessGone(1)).toBe(false);
  });
});
