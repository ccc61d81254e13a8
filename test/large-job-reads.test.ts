/**
 * Reading a large job never stalls the server nor holds the job in memory (issue 38, finding 10). A real
 * `crawlkit serve` process answers a job of 120 results of ~1 MB each while the test measures, from outside, the
 * most CPU time the server's main thread spends while a trivial request waits, and the server's peak RSS (VmHWM):
 * - four `?limit=10000` status reads (before: each read every result, 4 × 120 MB, and the loop stalled for seconds);
 * - two WebSocket catch-ups, each of every document (before: each one built the whole job, parsed, in memory);
 * - a 9 MB batch body of 280,000 URLs (before: its parse and checks held the loop for seconds).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createSqliteStore } from '@crawlkit/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ensureBuilt, startCli } from './cli-helpers.ts';
import { sleep, until } from './helpers-batch.ts';

const RESULTS = 120;
const DOC_BYTES = 1024 ** 2;

let site: FixtureServer;
let dir: string;
let url: string;
let pid: number;
let stop: () => Promise<void>;
let jobId: string;

/** The server's peak resident memory so far, in MB (Linux). */
function peakRssMb(): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024;
}

/**
 * Runs a load script in a child process (so that its own work, parsing 120 MB catch-ups or building a 9 MB body, does
 * not delay the probe of this process) and resolves with what it prints, parsed as JSON.
 */
async function load(source: string): Promise<unknown> {
  const file = join(dir, `load-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, source);
  const child = spawn(process.execPath, [file, url, jobId], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`load script exited ${code}: ${out}`);
  return JSON.parse(out) as unknown;
}

/** CPU time (user + system) of the server's main thread so far, in ms (Linux; 10 ms ticks). */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * Runs `work` while a trivial request is sent every 20 ms; resolves with the most CPU time the server's main thread
 * spent while one trivial answer waited, in ms: how long its event loop was held. Wall-clock answer times would also
 * count the time a loaded machine did not schedule the server at all (1,243 ms once at load 18, 136 ms alone).
 */
async function slowestAnswerDuring(work: () => Promise<void>): Promise<number> {
  let slowest = 0;
  let running = true;
  const probe = (async () => {
    while (running) {
      const cpuBefore = mainThreadCpuMs();
      await (await fetch(`${url}/v2/team/credit-usage`)).arrayBuffer();
      slowest = Math.max(slowest, mainThreadCpuMs() - cpuBefore);
      await sleep(20);
    }
  })();
  try {
    await work();
  } finally {
    running = false;
    await probe;
  }
  return slowest;
}

beforeAll(async () => {
  ensureBuilt();
  site = await startFixtureServer();
  dir = mkdtempSync(join(tmpdir(), 'ck-large-job-'));
  const child = startCli(['serve', '--port', '0', '--store', join(dir, 'store'), '--engine', 'http'], { cwd: dir });
  let stdout = '';
  child.stdout!.on('data', (chunk: string) => (stdout += chunk));
  await until(() => stdout.includes('\n') || child.exitCode !== null, 30_000);
  url = stdout.split('\n')[0]!.trim();
  pid = child.pid!;
  stop = async () => {
    child.kill('SIGTERM');
    await child.result;
  };
  const started = (await (
    await fetch(`${url}/v2/batch/scrape`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ urls: [`${site.url}/`] }),
    })
  ).json()) as { id: string };
  jobId = started.id;
  await until(async () => {
    const status = (await (await fetch(`${url}/v2/batch/scrape/${jobId}`)).json()) as { status: string };
    return status.status === 'completed';
  }, 30_000);
  // The job's results grow to ~120 MB through a second handle on the store, as another process would write them.
  const store = await createSqliteStore({ dir: join(dir, 'store') });
  const body = 'Words of a long page. '.repeat(DOC_BYTES / 22);
  for (let i = 0; i < RESULTS; i++) {
    const key = `large-${i}`;
    await store.tasks.add(jobId, [{ key, url: `${site.url}/large/${i}`, depth: 0 }]);
    const document = JSON.stringify({
      markdown: body,
      metadata: { sourceURL: `${site.url}/large/${i}`, statusCode: 200 },
    });
    await store.tasks.complete(jobId, { key, credits: 1, document });
  }
  await store.close();
}, 180_000);

afterAll(async () => {
  if (process.env.KEEP_LARGE_JOB) {
    console.log('KEPT', dir, jobId);
    await stop?.();
    return;
  }
  await stop?.();
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

// Each test moves hundreds of MB through a served engine: 12-30 s alone, past vitest's 30 s in a CI pair. What they bound
// is the server's stalls and memory, not their length.
describe('a large job', { timeout: 90_000 }, () => {
  it('is read by four ?limit=10000 status reads without stalling the server or holding the job', async () => {
    const before = peakRssMb();
    const slowest = await slowestAnswerDuring(async () => {
      const reads = (await load(`
        const [url, id] = process.argv.slice(2);
        const reads = await Promise.all(Array.from({ length: 4 }, async () => {
          const read = await (await fetch(url + '/v2/batch/scrape/' + id + '?limit=10000')).json();
          return { documents: read.data.length, next: read.next !== undefined };
        }));
        console.log(JSON.stringify(reads));
      `)) as { documents: number; next: boolean }[];
      for (const read of reads) {
        // A page is cut at ~10 MB of documents, and says where the rest is.
        expect(read.documents).toBeGreaterThan(0);
        expect(read.documents).toBeLessThan(RESULTS + 1);
        expect(read.next).toBe(true);
      }
    });
    const grown = peakRssMb() - before;
    console.log(`FIGURES slowest ${Math.round(slowest)} ms, peak RSS +${Math.round(grown)} MB`);
    expect(slowest, `the server's loop held ${Math.round(slowest)} ms of CPU during a trivial answer`).toBeLessThan(
      1_000,
    );
    expect(grown, `peak RSS grew ${Math.round(grown)} MB`).toBeLessThan(300);
  });

  // Two sessions, not four: each catch-up parses all 120 MB in the load script, and four (480 MB) ran past 90 s in a
  // CI pair and under 8 busy loops here, the server's loop never stalling. Two sessions that each held the job would
  // still grow it by 240 MB of strings: past the bound below, which the sessions keep under by 7x.
  it('is caught up by two WebSockets, every document, without holding the job per session', async () => {
    const before = peakRssMb();
    const slowest = await slowestAnswerDuring(async () => {
      const counts = (await load(`
        const [url, id] = process.argv.slice(2);
        const counts = await Promise.all(Array.from({ length: 2 }, () => new Promise((resolve, reject) => {
          const socket = new WebSocket(url.replace('http', 'ws') + '/v2/batch/scrape/' + id);
          let documents = 0;
          socket.onmessage = (event) => {
            const message = JSON.parse(String(event.data));
            if (message.type === 'catchup') documents += message.data.data.length;
            if (message.type === 'document') documents++;
            if (message.type === 'done') resolve(documents);
          };
          socket.onerror = () => reject(new Error('socket error'));
        })));
        console.log(JSON.stringify(counts));
      `)) as number[];
      for (const count of counts) expect(count).toBe(RESULTS + 1);
    });
    const grown = peakRssMb() - before;
    console.log(`FIGURES slowest ${Math.round(slowest)} ms, peak RSS +${Math.round(grown)} MB`);
    expect(slowest, `the server's loop held ${Math.round(slowest)} ms of CPU during a trivial answer`).toBeLessThan(
      1_000,
    );
    expect(grown, `peak RSS grew ${Math.round(grown)} MB`).toBeLessThan(200);
  });

  it('takes a 9 MB batch body of 280,000 URLs without stalling other requests', async () => {
    const slowest = await slowestAnswerDuring(async () => {
      const started = (await load(`
        const [url] = process.argv.slice(2);
        const urls = Array.from({ length: 280000 }, (_, i) => '${site.url}/many/' + i);
        const response = await fetch(url + '/v2/batch/scrape', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ urls }),
        });
        const started = await response.json();
        await fetch(url + '/v2/batch/scrape/' + started.id, { method: 'DELETE' });
        console.log(JSON.stringify(started));
      `)) as { success: boolean };
      expect(started.success).toBe(true);
    });
    expect(slowest, `the server's loop held ${Math.round(slowest)} ms of CPU during a trivial answer`).toBeLessThan(
      1_000,
    );
    console.log(`FIGURES slowest ${Math.round(slowest)} ms`);
  });
});
