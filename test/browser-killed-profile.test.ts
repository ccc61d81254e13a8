// A process killed while its browser ran (SIGKILL, an out-of-memory kill, a test runner ending a worker that timed
// out) cannot remove Chromium's temporary profile; Chromium exits with it. The next browser launched on the machine
// removes the profiles of processes that are gone, and leaves those of processes still running.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Crawlkit } from 'crawlkit';
import { afterAll, expect, it } from 'vitest';

import { data, ISOLATED_ARGS } from './helpers/scrape.ts';

const helpers = fileURLToPath(new URL('./helpers/', import.meta.url));
const site = createServer((_, res) => res.end('<html><body><p>A page the browser renders.</p></body></html>'));
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
const children: ChildProcess[] = [];
const profiles: string[] = [];
// The profiles go in a temporary directory of this file's: a launch anywhere else on the machine (another test file,
// another suite) sweeps the shared one, and took the dead process's profile before this file's launch could.
const profileDir = mkdtempSync(join(tmpdir(), 'ck-killed-profile-'));
afterAll(async () => {
  await Promise.all(children.map(killed));
  for (const profile of profiles) {
    await gone(profile);
    rmSync(profile, { recursive: true, force: true });
  }
  await new Promise<void>((resolve) => site.close(() => resolve()));
  rmSync(profileDir, { recursive: true, force: true });
});

/** SIGKILLs `child`; resolves once it has exited. */
async function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** Resolves once no process has `profile` on its command line (a Chromium exits as its owner's pipe closes). */
async function gone(profile: string): Promise<void> {
  while ((await processes()).some(({ cmdline }) => cmdline.includes(profile))) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every process's parent and command line (Linux /proc). */
async function processes(): Promise<{ ppid: number; cmdline: string }[]> {
  const found: { ppid: number; cmdline: string }[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    // The fields after the command name, which is in parentheses and may hold spaces: state, then ppid.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    found.push({ ppid, cmdline: cmdline.replaceAll('\0', ' ') });
  }
  return found;
}

/** Starts a process that scrapes in the browser and keeps it; resolves with the process and its Chromium profile. */
async function browserHolder(): Promise<{ child: ChildProcess; profile: string }> {
  const child = spawn(
    process.execPath,
    ['--import', join(helpers, 'source-hooks.ts'), join(helpers, 'browser-no-close-child.ts'), url, 'hold'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: profileDir } },
  );
  children.push(child);
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve();
    });
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', () => reject(new Error(`the browser holder exited: ${out}`)));
  });
  expect(out).toContain('scraped');
  const chromium = (await processes()).find(
    ({ ppid, cmdline }) => ppid === child.pid && cmdline.includes('--user-data-dir='),
  );
  const profile = /--user-data-dir=(\S+)/.exec(chromium?.cmdline ?? '')?.[1];
  expect(profile, 'the Chromium of the browser holder').toBeDefined();
  profiles.push(profile!);
  return { child, profile: profile! };
}

it.skipIf(process.platform !== 'linux')(
  "removes the Chromium profile of a killed process at the next launch, not a running process's",
  async () => {
    const [running, dead] = await Promise.all([browserHolder(), browserHolder()]);
    await killed(dead.child);
    // Its Chromium exits as its pipe closes, removing its lock (and nothing else) from the profile.
    await gone(dead.profile);
    expect(existsSync(dead.profile)).toBe(true);

    // This process's launch sweeps the same directory (`os.tmpdir()` reads TMPDIR at each call; the files of a test
    // process run one after another, so no other file launches meanwhile).
    const tmp = process.env.TMPDIR;
    process.env.TMPDIR = profileDir;
    const ck = new Crawlkit({ store: 'memory', engine: 'browser', browser: { args: ISOLATED_ARGS } });
    try {
      data(await ck.scrape({ url, formats: ['markdown'] }));
    } finally {
      await ck.close();
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
    }
    // Before: every killed process left its profile (2 MB and more) in the temporary directory for good.
    expect(existsSync(dead.profile)).toBe(false);
    expect(existsSync(running.profile)).toBe(true);
  },
  90_000,
);
