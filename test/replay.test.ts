/**
 * Record and replay (issue 41): a crawl of the docs site recorded to WARC, then replayed with the site's server
 * stopped. A socket counter on `net.client.socket` (every client socket of the process, whatever opens it) proves
 * replay opens none; the recording is read back with warcio's own parser.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Crawlkit, type CrawlRequestInput, type Document, type ErrorResponse, type JobStatusResponse } from 'crawlkit';
import { indexWarc } from '@crawlkit/fetcher/warc';
import { WARCParser } from 'warcio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { data, ISOLATED_ARGS } from './helpers/scrape.ts';

const DOCS = fileURLToPath(new URL('../fixtures/docs-site', import.meta.url));

let dir: string;
let docs: FixtureServer;
let live: JobStatusResponse;
let crawlBody: CrawlRequestInput;

/** Every client socket this process creates while `run` runs. */
async function socketsDuring<T>(run: () => Promise<T>): Promise<{ value: T; sockets: number }> {
  let sockets = 0;
  const count = () => sockets++;
  subscribe('net.client.socket', count);
  try {
    return { value: await run(), sockets };
  } finally {
    unsubscribe('net.client.socket', count);
  }
}

async function responseUrls(file: string): Promise<string[]> {
  const urls: string[] = [];
  for await (const record of WARCParser.iterRecords([await readFile(file)])) {
    if (record.warcType === 'response') urls.push(record.warcTargetURI ?? '');
    await record.readFully();
  }
  return urls;
}

/** What a replay must give back the same: the content and the metadata that come from the page. */
function comparable(doc: Document) {
  const { title, description, language, statusCode, url, sourceURL, contentType } = doc.metadata;
  return {
    markdown: doc.markdown,
    links: doc.links,
    title,
    description,
    language,
    statusCode,
    url,
    sourceURL,
    contentType,
  };
}

function byUrl(status: JobStatusResponse) {
  return Object.fromEntries(status.data.map((doc) => [doc.metadata.sourceURL, comparable(doc)]));
}

function replayEngine(files: string[], extra: object = {}): Crawlkit {
  return new Crawlkit({ store: 'memory', engine: 'replay', replay: { files }, ...extra });
}

async function finished(ck: Crawlkit, started: { success: boolean; id?: string }): Promise<JobStatusResponse> {
  if (!started.success || !started.id) throw new Error(`job refused: ${JSON.stringify(started)}`);
  const status = await ck.waitForJob(started.id);
  if (!status.success) throw new Error(`job failed: ${status.error}`);
  return status;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crawlkit-replay-'));
  docs = await startFixtureServer({ root: DOCS });
  crawlBody = {
    url: `${docs.url}/`,
    limit: 50,
    scrapeOptions: { formats: ['markdown', 'links'], onlyMainContent: false },
  };
  const ck = new Crawlkit({ storeDir: join(dir, 'store'), engine: 'http' });
  try {
    live = await finished(ck, await ck.crawl({ ...crawlBody, record: true }));
  } finally {
    await ck.close();
    await docs.close();
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('record', () => {
  it("writes the crawl's responses to <storeDir>/warc/<id>.warc.gz, each once, readable by warcio", async () => {
    expect(live.status).toBe('completed');
    expect(live.data.length).toBeGreaterThan(5);
    expect(live.warcFile).toBe(join(dir, 'store', 'warc', `${live.warcFile!.split('/').pop()}`));
    const urls = await responseUrls(live.warcFile!);
    expect(new Set(urls).size).toBe(urls.length);
    for (const doc of live.data) expect(urls).toContain(doc.metadata.url);
    // robots.txt was asked for too (a 404 here), so a replay reads the same rules.
    expect(urls).toContain(`${docs.url}/robots.txt`);
  });
});

describe('record, other jobs', () => {
  it('records a batch with both its pages marked (what crawlkit replay lists); refuses record with zeroDataRetention', async () => {
    const site = await startFixtureServer();
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    try {
      const urls = [`${site.url}/redirect/once`, `${site.url}/articles/first-post.html`];
      const batch = await finished(ck, await ck.batchScrape({ urls, record: true }));
      expect(batch.warcFile).toMatch(/crawlkit-warc-\d+\/[0-9a-f-]+\.warc\.gz$/);
      const index = await indexWarc(batch.warcFile!);
      // Both pages, however the batch's two fetches of first-post.html (direct, and the redirect's end) interleaved.
      expect(index.pages.toSorted()).toEqual([`${site.url}/articles/first-post.html`, `${site.url}/redirect/once`]);
      expect([...index.responses.keys()]).toEqual(
        expect.arrayContaining([`${site.url}/redirect/once`, `${site.url}/articles/first-post.html`]),
      );
      const refused = (await ck.batchScrape({ urls, record: true, zeroDataRetention: true })) as ErrorResponse;
      expect(refused).toMatchObject({ success: false, code: 'BAD_REQUEST' });
      expect(refused.error).toMatch(/record writes every response to a WARC file on disk/);
      await rm(batch.warcFile!);
    } finally {
      await ck.close();
      await site.close();
    }
  });
  it('says where a recorded scrape that failed after the site answered (an image) was recorded', async () => {
    const site = await startFixtureServer();
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    try {
      const url = `${site.url}/http/image`;
      const failed = (await ck.scrape({ url, formats: ['markdown'], record: true })) as ErrorResponse;
      expect(failed).toMatchObject({ success: false, code: 'SCRAPE_UNSUPPORTED_FILE_ERROR' });
      expect(failed.warcFile).toMatch(/crawlkit-warc-\d+\/scrape-[0-9a-f-]+\.warc\.gz$/);
      expect([...(await indexWarc(failed.warcFile!)).responses.keys()]).toEqual([url]);
      await rm(failed.warcFile!);
      // Nothing answered: no file to name.
      const refused = (await ck.scrape({ url: 'http://127.0.0.1:9/', record: true, timeout: 5000 })) as ErrorResponse;
      expect(refused.success).toBe(false);
      expect(refused.warcFile).toBeUndefined();
    } finally {
      await ck.close();
      await site.close();
    }
  });
  it('refuses record with lockdown or minAge, which ask for the page cache only, for a scrape, a batch and a crawl', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    try {
      const url = 'http://127.0.0.1:9/page';
      for (const cacheOnly of [{ lockdown: true }, { minAge: 1000 }]) {
        const answers = [
          await ck.scrape({ url, record: true, ...cacheOnly }),
          await ck.batchScrape({ urls: [url], record: true, ...cacheOnly }),
          await ck.crawl({ url, record: true, scrapeOptions: cacheOnly }),
        ];
        for (const refused of answers) {
          expect(refused).toMatchObject({ success: false, code: 'BAD_REQUEST' });
          expect((refused as ErrorResponse).error).toMatch(/record fetches every page .* drop one of them/);
        }
      }
    } finally {
      await ck.close();
    }
  });
});

describe('replay', () => {
  it('crawls the recording with the server stopped: the same documents, no socket opened', async () => {
    const ck = replayEngine([live.warcFile!]);
    try {
      const { value: replayed, sockets } = await socketsDuring(async () => finished(ck, await ck.crawl(crawlBody)));
      expect(sockets).toBe(0);
      expect(replayed.data).toHaveLength(live.data.length);
      expect(byUrl(replayed)).toEqual(byUrl(live));
      expect(replayed.data[0]?.metadata.engineReason).toBe('engine:replay');
    } finally {
      await ck.close();
    }
  });

  it('answers a URL not in the recording with SCRAPE_REPLAY_NOT_RECORDED in the v2 error shape', async () => {
    const ck = replayEngine([live.warcFile!]);
    try {
      const missing = (await ck.scrape({ url: `${docs.url}/guide/nowhere.html` })) as ErrorResponse;
      expect(missing).toMatchObject({ success: false, code: 'SCRAPE_REPLAY_NOT_RECORDED' });
      expect(missing.error).toMatch(/is not in the recording .*record: true/);
    } finally {
      await ck.close();
    }
  });

  it('answers lockdown with a miss that names the replay engine, not options the request does not have', async () => {
    const ck = replayEngine([live.warcFile!]);
    try {
      const locked = (await ck.scrape({ url: `${docs.url}/`, lockdown: true })) as ErrorResponse;
      expect(locked).toMatchObject({ success: false, code: 'SCRAPE_LOCKDOWN_CACHE_MISS' });
      expect(locked.error).toMatch(/the replay engine serves its recordings and reads no page cache: drop lockdown/);
      expect(locked.error).not.toMatch(/headers, actions/);
    } finally {
      await ck.close();
    }
  });

  it('answers minAge with no cached data that names the replay engine, not the recorded page', async () => {
    const ck = replayEngine([live.warcFile!]);
    try {
      const old = (await ck.scrape({ url: `${docs.url}/`, minAge: 1 })) as ErrorResponse;
      expect(old).toMatchObject({ success: false, code: 'SCRAPE_NO_CACHED_DATA' });
      expect(old.error).toMatch(/the replay engine serves its recordings and reads no page cache: drop minAge/);
    } finally {
      await ck.close();
    }
  });

  it("refuses a recorded page outside the engine's URL policy", async () => {
    const ck = replayEngine([live.warcFile!], { urlPolicy: 'strict' });
    try {
      const refused = (await ck.scrape({ url: `${docs.url}/` })) as ErrorResponse;
      expect(refused).toMatchObject({ success: false, code: 'URL_BLOCKED' });
    } finally {
      await ck.close();
    }
  });

  it('serves the complete records of a truncated recording and warns once where it was cut', async () => {
    const whole = await readFile(live.warcFile!);
    const cut = join(dir, 'cut.warc.gz');
    await writeFile(cut, whole.subarray(0, Math.floor(whole.length * 0.6)));
    const ck = replayEngine([cut]);
    const warnings: string[] = [];
    ck.on('warning', (warning) => warnings.push(`${warning.code}: ${warning.message}`));
    try {
      const replayed = await finished(ck, await ck.crawl(crawlBody));
      expect(replayed.data.length).toBeGreaterThan(0);
      expect(replayed.data.length).toBeLessThan(live.data.length);
      for (const doc of replayed.data) expect(comparable(doc)).toEqual(byUrl(live)[doc.metadata.sourceURL]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^REPLAY_TRUNCATED: The recording .*cut\.warc\.gz ends inside a record/);
    } finally {
      await ck.close();
    }
  });

  it('refuses engine: replay without files, naming the option', () => {
    expect(() => new Crawlkit({ engine: 'replay' })).toThrow(/replay: \{ files/);
  });
});

describe('record and replay in the browser', () => {
  it('records the document, its script and its data through CDP, and renders them again in replay', async () => {
    const site = await startFixtureServer();
    const url = `${site.url}/js/app-shell.html`;
    const ck = new Crawlkit({ store: 'memory', engine: 'browser', browser: { args: ISOLATED_ARGS } });
    let recorded: Document;
    try {
      recorded = data(await ck.scrape({ url, record: true }));
    } finally {
      await ck.close();
      await site.close();
    }
    expect(recorded.markdown).toContain('Content that only JavaScript shows');
    const urls = await responseUrls(recorded.metadata.warcFile!);
    const api = `${site.url}/js/api/slow?ms=100`;
    expect(urls).toEqual(expect.arrayContaining([url, `${site.url}/js/app.js`, api]));
    expect(new Set(urls).size).toBe(urls.length);

    // Replayed with the site down: rendered again in the browser, every request answered from the recording.
    const replay = replayEngine([recorded.metadata.warcFile!], { browser: { args: ISOLATED_ARGS } });
    try {
      const page = data(await replay.scrape({ url }));
      expect(page.metadata).toMatchObject({ statusCode: 200, engine: 'browser', engineReason: 'engine:replay' });
      expect(page.markdown).toBe(recorded.markdown);
      // Any resource, served as recorded (no rendering needed for a script).
      const script = data(await replay.scrape({ url: `${site.url}/js/app.js`, formats: ['rawHtml'] }));
      expect(script.rawHtml).toContain("fetch('/js/api/slow?ms=100')");
      const missing = (await replay.scrape({ url: `${site.url}/js/nowhere.html` })) as ErrorResponse;
      expect(missing).toMatchObject({ success: false, code: 'SCRAPE_REPLAY_NOT_RECORDED' });
    } finally {
      await replay.close();
      // A memory store records to the system's temporary directory: this test's file goes with it.
      await rm(recorded.metadata.warcFile!, { force: true });
    }
  }, 60_000);
});
