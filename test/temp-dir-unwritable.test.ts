/**
 * A container or a service manager may point TMPDIR at a folder that is not there. What crawlkit keeps in the
 * temporary directory makes it; one that cannot be made (here a file in its path, for a user without write access to
 * its parent) fails at once, naming the folder and TMPDIR: Chromium's profile (`BROWSER_LAUNCH_FAILED`; before,
 * `UNKNOWN_ERROR` "ENOENT … mkdtemp"), and the recording of a memory store's `record: true` (`RECORDING_UNWRITABLE`
 * before any page is fetched; before, a crawl completed with a `warcFile` naming no file, and a scrape fetched its
 * page then answered `UNKNOWN_ERROR`). `os.tmpdir()` reads TMPDIR at each call, and each test file has its own
 * `process.env`.
 */
import { chownSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit } from 'crawlkit';
import { afterAll, afterEach, beforeEach, expect, it } from 'vitest';

import { ISOLATED_ARGS } from './helpers/scrape.ts';

let requests = 0;
const site = createServer((_, res) => {
  requests++;
  res.setHeader('content-type', 'text/html');
  res.end('<html><head><title>T</title></head><body><main><p>A page in a container.</p></main></body></html>');
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
const parent = mkdtempSync(join(tmpdir(), 'ck-temp-dir-'));
writeFileSync(join(parent, 'file'), 'a file where a folder should be');
/** A TMPDIR that cannot be made, whoever runs the test. */
const unmakeable = join(parent, 'file', 'tmp');
const realTmp = process.env.TMPDIR;
/** This user's recordings folder's name in the temporary directory. */
const warcFolder = `crawlkit-warc-${process.getuid!()}`;
afterAll(async () => {
  await new Promise<void>((resolve) => site.close(() => resolve()));
  rmSync(parent, { recursive: true, force: true });
});
beforeEach(() => {
  requests = 0;
  process.env.TMPDIR = unmakeable;
});
afterEach(() => {
  if (realTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = realTmp;
});

it('refuses record: true of a memory store at once when TMPDIR cannot be made, naming it and TMPDIR', async () => {
  const ck = new Crawlkit({ store: 'memory' });
  try {
    const scrape = await ck.scrape({ url, record: true });
    expect(scrape).toMatchObject({ success: false, code: 'RECORDING_UNWRITABLE' });
    const said = `The recording of record: true goes in the temporary directory ${unmakeable}, which has a file, not a directory, in its path (ENOTDIR). Set TMPDIR`;
    expect((scrape as { error: string }).error).toContain(said);
    const crawl = await ck.crawl({ url, limit: 2, record: true });
    expect(crawl).toMatchObject({ success: false, code: 'RECORDING_UNWRITABLE' });
    expect((crawl as { error: string }).error).toContain(said);
    expect(requests).toBe(0);
    // Without record: true the missing folder is no matter.
    expect(await ck.scrape({ url })).toMatchObject({ success: true });
  } finally {
    await ck.close();
  }
});

it('names the recordings folder when a file of that name stands in the temporary directory', async () => {
  const tmp = mkdtempSync(join(parent, 'tmp-'));
  writeFileSync(join(tmp, warcFolder), 'not a folder');
  process.env.TMPDIR = tmp;
  const ck = new Crawlkit({ store: 'memory' });
  try {
    const scrape = await ck.scrape({ url, record: true });
    expect(scrape).toMatchObject({ success: false, code: 'RECORDING_UNWRITABLE' });
    expect((scrape as { error: string }).error).toContain(
      `goes in ${join(tmp, warcFolder)} (in the temporary directory), which has a file, not a directory, in its path`,
    );
    expect(requests).toBe(0);
  } finally {
    await ck.close();
  }
});

it('answers BROWSER_LAUNCH_FAILED naming the folder and TMPDIR when the profile cannot be made', async () => {
  const ck = new Crawlkit({ store: 'memory', engine: 'browser', browser: { args: ISOLATED_ARGS } });
  try {
    const scrape = await ck.scrape({ url });
    expect(scrape).toMatchObject({ success: false, code: 'BROWSER_LAUNCH_FAILED' });
    expect((scrape as { error: string }).error).toContain(
      `Chromium's profile goes in the temporary directory ${unmakeable}, which has a file, not a directory, in its ` +
        'path (ENOTDIR). Set TMPDIR to a directory this process can write',
    );
  } finally {
    await ck.close();
  }
}, 30_000);

it('makes a TMPDIR that is not there: a recording and a browser page work', async () => {
  process.env.TMPDIR = join(parent, 'made');
  const ck = new Crawlkit({ store: 'memory', engine: 'browser', browser: { args: ISOLATED_ARGS } });
  try {
    const scrape = await ck.scrape({ url, record: true });
    expect(scrape).toMatchObject({ success: true });
    expect((scrape as { data: { metadata: { warcFile: string } } }).data.metadata.warcFile).toMatch(
      new RegExp(`^${join(parent, 'made', warcFolder)}/`),
    );
  } finally {
    await ck.close();
  }
}, 30_000);

it("makes the recordings folder this user's alone (0700, named by uid)", async () => {
  process.env.TMPDIR = mkdtempSync(join(parent, 'own-'));
  const ck = new Crawlkit({ store: 'memory' });
  try {
    const scrape = await ck.scrape({ url, record: true });
    expect(scrape).toMatchObject({ success: true });
    const folder = join(process.env.TMPDIR, warcFolder);
    expect(
      (scrape as { data: { metadata: { warcFile: string } } }).data.metadata.warcFile.startsWith(`${folder}/`),
    ).toBe(true);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
  } finally {
    await ck.close();
  }
});

it('refuses a recordings folder planted by another user, or a symbolic link, writing nothing there', async () => {
  const tmp = mkdtempSync(join(parent, 'planted-'));
  process.env.TMPDIR = tmp;
  const elsewhere = mkdtempSync(join(parent, 'elsewhere-'));
  symlinkSync(elsewhere, join(tmp, warcFolder));
  const ck = new Crawlkit({ store: 'memory' });
  try {
    const linked = await ck.scrape({ url, record: true });
    expect(linked).toMatchObject({ success: false, code: 'RECORDING_UNWRITABLE' });
    expect((linked as { error: string }).error).toContain(
      `goes in ${join(tmp, warcFolder)} (in the temporary directory), which is a symbolic link, not a folder of its own`,
    );
    rmSync(join(tmp, warcFolder));
    // Another user's folder (root may give it away; another user cannot, and the test then checks the link alone).
    if (process.getuid!() === 0) {
      mkdirSync(join(tmp, warcFolder), { mode: 0o777 });
      chownSync(join(tmp, warcFolder), 4242, 4242);
      const planted = await ck.scrape({ url, record: true });
      expect(planted).toMatchObject({ success: false, code: 'RECORDING_UNWRITABLE' });
      expect((planted as { error: string }).error).toContain(
        'which belongs to another user (uid 4242, this process runs as 0): another user of this machine may have put it',
      );
      expect((planted as { error: string }).error).toContain('Remove it if it is not yours, or set TMPDIR');
    }
    expect(requests).toBe(0);
  } finally {
    await ck.close();
  }
});
