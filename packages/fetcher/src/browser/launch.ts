import { setImmediate, setTimeout } from 'node:timers';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Browser, CDPSession, Target } from 'puppeteer-core';
import { makeDirLevel, tempDirProblem } from '@crawlkit/options/temp-dir';
import { withinBudget } from '@crawlkit/options/within-budget';

import { CHROMIUM_FLAGS, PROFILE_PREFIX } from './chromium-flags.js';
import { BrowserError } from './errors.js';
import { removeShmLeftovers } from './shm-leftovers.js';
import { findSocketDir, removeSocketDir } from './socket-dir.js';
import { removeStaleProfiles } from './stale-profiles.js';

/** A running Chromium and what is needed to take it down completely. */
export interface LaunchedBrowser {
  browser: Browser;
  pid: number | undefined;
  userDataDir: string;
  /** The directory of the profile's `SingletonSocket` (see `findSocketDir`), read once Chromium is up. */
  socketDir?: string;
  /** For a browser we launched: its temporary directory and when it started (see `removeShmLeftovers`). */
  launched?: { tempDir: string; at: number };
  /** Chromium's major version, e.g. `156`. */
  majorVersion: number;
  /** The user agent with `HeadlessChrome` spelled `Chrome`. */
  userAgent: string;
  /** Set for a browser we connected to (`browser.wsEndpoint`) instead of launching: it is not ours to close. */
  connection?: {
    endpoint: string;
    /** Contexts that were there before we connected: someone else's. */
    foreignContexts: ReadonlySet<string>;
  };
}

export interface LaunchOptions {
  executablePath: string;
  /** Extra flags, after `CHROMIUM_FLAGS`. */
  args: readonly string[];
  /** Time for Chromium to start, in milliseconds. */
  timeoutMs: number;
}

/** What puppeteer's target info holds beyond its public `Target` API. */
interface TargetInfoView {
  _getTargetInfo(): { targetId: string; openerId?: string; type: string; browserContextId?: string };
}

/** Starts Chromium headless over a pipe with a fresh temporary profile. */
export async function launchBrowser(options: LaunchOptions): Promise<LaunchedBrowser> {
  // At every launch (a few milliseconds): a server's browser relaunched when idle sweeps what was killed since.
  await removeStaleProfiles(tmpdir(), PROFILE_PREFIX);
  const launched = { tempDir: tmpdir(), at: Date.now() };
  const userDataDir = await makeProfileDir();
  let browser: Browser;
  /** A session on the browser target, for closing popups (set once Chromium is up). */
  const control: { session?: CDPSession } = {};
  try {
    // Loaded on first launch: HTTP-only users and the CLI's start-up do not pay for puppeteer.
    const { default: puppeteer } = await import('puppeteer-core');
    const launching = puppeteer.launch({
      targetFilter: closingPopups(() => control.session),
      ignoreDefaultArgs: ['--disable-popup-blocking'],
      // Signals are the embedding app's: puppeteer's own handlers made SIGINT exit 130 at once (before the app's
      // handler or the CLI's clean stop ran) and SIGTERM only close the browser, so that a process without a handler
      // of its own no longer stopped on it. Chromium ends with the process anyway: its pipe closes.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      executablePath: options.executablePath,
      headless: true,
      pipe: true,
      userDataDir,
      timeout: options.timeoutMs,
      args: [...CHROMIUM_FLAGS, ...options.args],
      defaultViewport: null,
      waitForInitialPage: false,
    });
    browser = await withinLaunchTime(launching, options.timeoutMs, userDataDir);
  } catch (error) {
    await removeProfile(userDataDir);
    const reason =
      error instanceof LaunchTimeout
        ? error.message
        : ((await whyItCannotRun(options.executablePath)) ??
          (error instanceof Error ? error.message.split('\n')[0] : String(error)));
    throw new BrowserError('BROWSER_LAUNCH_FAILED', `Chromium (${options.executablePath}) did not start: ${reason}`, {
      cause: error,
    });
  }
  control.session = await browser
    .target()
    .createCDPSession()
    .catch(() => undefined);
  const socketDir = await findSocketDir(userDataDir);
  const pid = browser.process()?.pid;
  return { browser, pid, userDataDir, socketDir, launched, ...(await describeBrowser(browser)) };
}

/**
 * A fresh profile directory in the temporary directory, named after this process (see `removeStaleProfiles`); a
 * temporary directory that is not there (TMPDIR naming a folder a container never made) is made first. One that
 * cannot be made or written is a launch failure naming the folder and TMPDIR, not a bare `mkdtemp` error.
 */
async function makeProfileDir(): Promise<string> {
  try {
    await makeDirLevel(tmpdir());
    return await mkdtemp(join(tmpdir(), `${PROFILE_PREFIX}${process.pid}-`));
  } catch (error) {
    throw new BrowserError('BROWSER_LAUNCH_FAILED', tempDirProblem("Chromium's profile", error), { cause: error });
  }
}

/** Chromium's major version and its user agent with `HeadlessChrome` spelled `Chrome`. */
export async function describeBrowser(browser: Browser): Promise<{ majorVersion: number; userAgent: string }> {
  const version = await browser.version().catch(() => 'Chrome/0');
  const majorVersion = Number(/\/(\d+)/.exec(version)?.[1] ?? 0);
  const userAgent = (await browser.userAgent().catch(() => '')).replace('HeadlessChrome', 'Chrome');
  return { majorVersion, userAgent };
}

/**
 * The target filter of every browser: popups (window.open, target=_blank) are closed as they open, through the
 * browser-target session `session()` gives once the browser is up; targets outside `ours` (by browser context: a
 * browser we connected to has other clients' pages) are not attached at all, and their popups left alone.
 * A new target waits for the debugger until puppeteer resumes it after this filter; the close goes after that resume,
 * not before: a popup closed while paused could leave its opener's renderer, which it shares, paused too (a click
 * calling window.open then hung to the end of the actions' time in 1 of 6 runs under load). Chromium's popup blocker
 * stays on (puppeteer turns it off by default), so most never open at all.
 */
export function closingPopups(
  session: () => CDPSession | undefined,
  ours: (browserContextId: string | undefined) => boolean = () => true,
): (target: Target) => boolean {
  return (target) => {
    const info = (target as unknown as TargetInfoView)._getTargetInfo();
    if (info.type === 'browser') return true;
    if (!ours(info.browserContextId)) return false;
    if (!info.openerId || (info.type !== 'page' && info.type !== 'tab')) return true;
    const close = () => session()?.send('Target.closeTarget', { targetId: info.targetId });
    setImmediate(() => void close()?.catch(() => undefined));
    return false;
  };
}

class LaunchTimeout extends Error {
  override name = 'TimeoutError';
}

/**
 * `starting` (a launch, or a connection to a running browser), or a `LaunchTimeout` saying `message` after `ms`
 * (`browser.launchTimeoutMs`); a browser it still returns after that is handed to `late` (to close, or disconnect).
 */
export async function startedWithin<T>(
  starting: Promise<T>,
  ms: number,
  message: string,
  late: (browser: T) => Promise<unknown>,
): Promise<T> {
  try {
    return await withinBudget(starting, ms, () => {
      throw new LaunchTimeout(message);
    });
  } catch (error) {
    if (error instanceof LaunchTimeout) {
      void starting.then(
        (browser) => late(browser).catch(() => undefined),
        () => undefined,
      );
    }
    throw error;
  }
}

/**
 * `launching`, or a `LaunchTimeout` after `ms`. Puppeteer's pipe launch does not apply its `timeout` (it waits for
 * Chromium's first answer on the pipe): a Chromium that hung at start held the launch, and every browser page, until
 * it exited. On timeout its processes (found by the profile on their command line) are killed, which ends the launch;
 * a browser it still returns is closed.
 */
async function withinLaunchTime(launching: Promise<Browser>, ms: number, userDataDir: string): Promise<Browser> {
  try {
    const message = `it did not answer within ${ms} ms (browser.launchTimeoutMs)`;
    return await startedWithin(launching, ms, message, (late) => late.close());
  } catch (error) {
    if (error instanceof LaunchTimeout) {
      // Scanned until none is seen three times in a row: one scan and a SIGKILL left the fake Chromium of a test
      // running when the failure was told, under load (spawned after the scan, or not dead yet).
      await killAllWith(userDataDir, { emptyScans: 3, scanMs: 100, maxMs: 5_000 });
    }
    throw error;
  }
}

/**
 * SIGKILLs every process with `argument` (a profile directory) on its command line, scanning again `scanMs` apart
 * until none is seen `emptyScans` times in a row, or `maxMs` passes.
 */
async function killAllWith(
  argument: string,
  settings: { emptyScans: number; scanMs: number; maxMs: number },
): Promise<void> {
  const until = Date.now() + settings.maxMs;
  for (let empty = 0; empty < settings.emptyScans && Date.now() < until;) {
    const pids = await processesWithArgument(argument);
    empty = pids.length === 0 ? empty + 1 : 0;
    for (const pid of pids) killGroup(pid);
    if (empty < settings.emptyScans) await new Promise((resolve) => setTimeout(resolve, settings.scanMs));
  }
}

/**
 * Why `executablePath` cannot run at all (missing shared libraries, a wrapper script that fails), from what
 * `--version` prints: puppeteer talks to Chromium over a pipe and reports only that the pipe closed ("Target
 * closed"), so the reason Chromium wrote on stderr was lost. Undefined when `--version` runs: the cause is elsewhere.
 */
async function whyItCannotRun(executablePath: string): Promise<string | undefined> {
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    execFile(executablePath, ['--version'], { timeout: 5_000, encoding: 'utf8' }, (error, _stdout, stderr) => {
      if (!error) return resolve(undefined);
      const said = stderr
        .split('\n')
        .map((line) => line.trim())
        .find(Boolean);
      const code = typeof error.code === 'number' ? `exit code ${error.code}` : (error.signal ?? error.message);
      resolve(
        `\`${executablePath} --version\` fails (${code})${said ? `: ${said.slice(0, 300)}` : ''}. ` +
          "Install what it lacks (Debian's chromium package brings its libraries) or point browser.executablePath " +
          '(or CRAWLKIT_CHROMIUM) at a Chromium that runs.',
      );
    });
  });
}

/**
 * Takes a browser down for good: SIGKILL of its whole process group (renderers, GPU and zygote processes included),
 * a wait of `graceMs` at most for its exit, then removal of the temporary profile and of the shared memory files the
 * kill left in the temporary directory.
 */
export async function destroyBrowser(launched: LaunchedBrowser, graceMs = 3_000): Promise<void> {
  const child = launched.browser.process();
  const exited = child ? waitForExit(child) : Promise.resolve();
  // Not after the pipe closes: Chromium then starts shutting down and unlinks it from the profile.
  const socketDir = launched.socketDir ?? (await findSocketDir(launched.userDataDir));
  // No graceful close first: it only saves the profile, which is deleted below (it took 0.3 s quiet, 1.2 s loaded).
  await launched.browser.disconnect().catch(() => undefined);
  if (child) releasePipes(child);
  killGroup(launched.pid);
  await withinBudget(exited, graceMs, () => undefined);
  // Helpers that left the process group (zygote, utility processes) still carry the profile on their command line.
  await killAllWith(launched.userDataDir, { emptyScans: 1, scanMs: 50, maxMs: 1_000 });
  await removeProfile(launched.userDataDir, socketDir);
  if (launched.launched) await removeShmLeftovers(launched.launched.tempDir, launched.launched.at);
}

/**
 * Closes our ends of the pipes to Chromium, each with a listener for its last error. `disconnect()` takes puppeteer's
 * listeners off them, and a message Chromium had not read when it dies comes back as a reset of its pipe: with no
 * listener, an uncaught ECONNRESET (Node reads the pipes once more when the child exits).
 */
function releasePipes(child: ChildProcess): void {
  for (const stream of child.stdio) {
    if (!stream) continue;
    stream.on('error', () => undefined);
    stream.destroy();
  }
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** SIGKILL to the process group led by `pid` (puppeteer starts Chromium detached, as a group leader). */
export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** Pids whose command line contains `argument` (Linux `/proc`; elsewhere none are found). */
export async function processesWithArgument(argument: string): Promise<number[]> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const pids: number[] = [];
  await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry))
      .map(async (entry) => {
        const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
        if (cmdline.includes(argument)) pids.push(Number(entry));
      }),
  );
  return pids;
}

async function removeProfile(dir: string, socketDir?: string): Promise<void> {
  await removeSocketDir(socketDir ?? (await findSocketDir(dir)));
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch(() => undefined);
}
