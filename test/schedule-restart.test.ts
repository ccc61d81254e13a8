/**
 * Schedules (issue 41) survive a restart of the process (SQLite file, a real child killed and started again), where a
 * firing missed while it was down runs once at the start.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createSqliteStore } from '@crawlkit/store';
import { describe, expect, it } from 'vitest';

import type { ChangingSite } from '../fixtures/changing-site.ts';
import { sleep, until, type Receiver } from './helpers-batch.ts';
import { freshSite, useScheduleReceiver } from './helpers/schedule-site.ts';

const helpers = join(import.meta.dirname, 'helpers');

let site: ChangingSite;
let receiver: Receiver;
const { changesOf } = useScheduleReceiver((started) => (receiver = started));

describe('schedules', () => {
  it('fires across a restart of the process: a firing missed while down runs once at the start', async () => {
    site = await freshSite();
    const dir = mkdtempSync(join(tmpdir(), 'ck-schedules-'));
    try {
      const first = spawnChild([dir, site.url, receiver.url]);
      const createdLine = await first.line((l) => 'created' in l);
      const id = createdLine.created as string;
      // Killed as soon as the first run's changes are in the outbox (sent from there once the dead process's lease on
      // the crawl expires).
      const run1 = (await first.line((l) => 'changes' in l)).changes as { jobId: string };
      first.child.kill('SIGKILL');
      await once(first.child, 'exit');

      // While no process runs it, the next firing comes due.
      const store = await createSqliteStore({ dir });
      const missed = (await store.schedules!.get(id))!.nextRunAt;
      await store.close();
      // Waits for a known instant (the firing the store holds), not for a guess.
      await sleep(Math.max(0, missed - Date.now() + 50));
      site.set('/edited.html', { title: 'Edited', text: 'Second version of the text.' });

      const restartedAt = Date.now();
      const second = spawnChild([dir]);
      const catchUp = (await second.line((l) => 'run' in l)).run as { dueAt: number; jobIds: string[] };
      expect(catchUp.dueAt).toBe(missed);
      const changes = (
        await second.line((l) => 'changes' in l && (l.changes as { jobId: string }).jobId === catchUp.jobIds[0])
      ).changes as { jobId: string };
      await until(() => Object.keys(changesOf(changes.jobId)).length === 1);
      expect(changesOf(changes.jobId)).toEqual({ '/edited.html': 'changed' });
      // The regular firings go on from the first one after the restart; the missed one is never run twice.
      const next = (await second.line((l) => 'run' in l && (l.run as { dueAt: number }).dueAt !== missed)).run as {
        dueAt: number;
      };
      expect(next.dueAt).toBeGreaterThan(restartedAt);
      expect((next.dueAt - missed) % 2_000).toBe(0);
      second.child.kill('SIGKILL');
      // The first run had completed and queued its changes before the kill: the restarted process, which follows each
      // schedule's last run again before its first look, neither queues them twice (the outbox has them, whichever
      // process sends them) nor tells them again.
      expect(second.lines.filter((l) => (l.changes as { jobId?: string } | undefined)?.jobId === run1.jobId)).toEqual(
        [],
      );
      await once(second.child, 'exit');
      const runs = second.lines.filter((l) => 'run' in l).map((l) => (l.run as { dueAt: number }).dueAt);
      expect(runs.filter((d) => d === missed)).toHaveLength(1);
    } finally {
      await site.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

interface Child {
  child: ReturnType<typeof spawn>;
  lines: Record<string, unknown>[];
  /** The first line (already printed or to come) that `match` accepts. */
  line(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

function spawnChild(args: string[]): Child {
  const child = spawn(
    process.execPath,
    ['--import', join(helpers, 'built-hooks.ts'), join(helpers, 'schedule-child.ts'), ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lines: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let buffer = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>);
      buffer = buffer.slice(newline + 1);
      for (const wake of waiters) wake();
    }
  });
  const line = (match: (line: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const look = () => {
        const found = lines.find(match);
        if (!found) return;
        waiters.delete(look);
        resolve(found);
      };
      waiters.add(look);
      child.on('exit', (code, signal) => {
        if (waiters.delete(look)) reject(new Error(`child exited (${code ?? signal}) before the line: ${stderr}`));
      });
      look();
    });
  return { child, lines, line };
}
