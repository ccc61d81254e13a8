/**
 * `import 'crawlkit'`, a plain scrape, the extraction worker's start and a `crawlkit` command load only what they use: the modules of the
 * optional features (documents, browser, proxies, LLM and JSON Schema, diff, WARC, server, MCP, Redis, the browser
 * engine, schedules, monitors and search) are loaded by the first call that needs them (docs/decisions.md, "Lazy
 * loading"). Each case is a fresh process recording every
 * module it loads, so that a static import of one of them anywhere in the graph fails here. The speed itself is
 * `bench/startup.ts`'s.
 *
 * On a build instead of the sources: `CK_STARTUP_BUILD=<repo>/packages/crawlkit/dist pnpm exec vitest run test/startup-modules.test.ts`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';

const run = promisify(execFile);
const helpers = fileURLToPath(new URL('./helpers/', import.meta.url));

/** Packages no plain scrape uses, as they appear in a module's path (`.../node_modules/<name>/...`). */
const OPTIONAL = [
  // documents (PDF, office, CSV, OCR)
  'officeparser',
  'pdf-lib',
  'word-extractor',
  'csv-parse',
  '@xmldom/xmldom',
  'yauzl',
  'pdf-parse',
  'tesseract.js',
  // browser engine, ad blocking, proxies
  'puppeteer-core',
  '@ghostery/adblocker',
  'proxy-chain',
  'socks',
  // LLM formats, embeddings, JSON Schema
  'ai',
  '@ai-sdk/gateway',
  '@ai-sdk/provider-utils',
  '@vercel/oidc',
  'ajv',
  // change tracking's git diff, WARC recording and replay
  'diff',
  'warcio',
  'pako',
  // the path patterns' linear-time engine, loaded by the first crawl or map with includePaths or excludePaths, and
  // the check that lets a lookahead run on RegExp
  're2js',
  'safe-regex2',
  'ret',
  // the server, MCP and the Redis backend
  'fastify',
  '@modelcontextprotocol/sdk',
  'bullmq',
  'ioredis',
];

/** Libraries a plain scrape of a page that declares its charset never calls, loaded by their first call. */
const LOADED_WHEN_NEEDED = ['chardet', 'iconv-lite'];
/** Loaded by the first call that decodes a page's text: in the workers, never on a scrape's main thread. */
const DECODING = ['encoding-sniffer', '@exodus/bytes'];

/** Workspace packages no plain scrape uses. */
const OPTIONAL_PACKAGES = ['server', 'mcp', 'redis'];

function offenders(urls: readonly string[], extra: readonly string[] = []): string[] {
  const names = [...OPTIONAL, ...extra];
  return urls.filter(
    (url) =>
      names.some((name) => url.includes(`/node_modules/${name}/`)) ||
      OPTIONAL_PACKAGES.some((name) => url.includes(`/packages/${name}/`)),
  );
}

/** The extractor, its selector engine and the document readers, which load in the workers, not on the main thread. */
function onMainThread(urls: readonly string[]): string[] {
  // The main thread needs only the documents' signature check (`@crawlkit/documents/detect`, with the zip reader it
  // reads an OpenDocument's manifest with, for its encryption) to tell a document from a page, and the branding
  // collector's script (`@crawlkit/extractor/branding-script`) to add it to a page's actions, and the extractor's
  // warning sentences (`@crawlkit/extractor/page-warnings`) to leave one off an error page's warning.
  return urls.filter(
    (u) =>
      (/\/packages\/extractor\/(src|dist)\//.test(u) &&
        !/\/(branding-script|branding\/collect-script|page-warnings)\.[jt]s$/.test(u)) ||
      /\/node_modules\/css-select\//.test(u) ||
      (/\/packages\/documents\/(src|dist)\//.test(u) && !/\/(detect|zip\/directory|zip\/parts|types)\.[jt]s$/.test(u)),
  );
}

/**
 * The fetcher's browser engine (its pool, launcher, network gate, page setup, smart wait, cookie banners, ad blocking,
 * downloads, ...), which the first page chosen for the browser loads. Of the fetcher's browser folder, a process
 * without one loads only what the package's index exports to every caller: the errors, the country profiles, where
 * Chromium is and its flags.
 */
function browserEngine(urls: readonly string[]): string[] {
  return urls.filter(
    (u) =>
      /\/packages\/fetcher\/(src|dist)\/(browser\/|engines\/browser-page-engine\.)/.test(u) &&
      !/\/browser\/(index|errors|countries|chromium-path|chromium-wrapper|chromium-flags)\.[jt]s$/.test(u),
  );
}

/**
 * The browser actions' runner (its steps, screenshots and PDF capture, navigation, errors), which the browser engine
 * loads with its first page. A plain scrape checks a request's actions and viewport with the package's schema
 * (`@crawlkit/actions/schema`, with the key names it validates) and sleeps with its `sleep`, and loads nothing else of it.
 */
function actionsRunner(urls: readonly string[]): string[] {
  return urls.filter(
    (u) =>
      /\/packages\/actions\/(src|dist)\//.test(u) &&
      !/\/(schema|sleep|types|steps\/keys|steps\/key-names)\.[jt]s$/.test(u),
  );
}

/**
 * Schedules, monitors (the scheduler, their calls, the monitors' checks) and search (the query, the local index's
 * reader, the hybrid ranking), which their first call loads (src/lazy-features.ts). Only their facades load with the
 * engine: the methods of `ck.schedules` and `ck.monitors`, the search options and providers the options name, and the
 * search text a scrape stores.
 */
function scheduleMonitorSearch(urls: readonly string[]): string[] {
  const facades =
    /\/(schedules\/(schedule-methods|lazy-scheduler)|monitors\/monitor-methods|search\/(options|setup|markdown-text|search-head|providers\/[\w-]+))\.[jt]s$/;
  return urls.filter((u) => /\/crawlkit\/(src|dist)\/(schedules|monitors|search)\//.test(u) && !facades.test(u));
}

/**
 * On a build, the extraction worker is a bundle (scripts/bundle-worker.ts): what it carries is in its source map, as
 * a path beside crawlkit in an install (`../../../<package>/…`). Those are added as the modules they were.
 */
function withBundled(urls: string[]): string[] {
  const bundle = urls.find((u) => u.endsWith('/dist/extraction/worker.js'));
  if (!bundle) return urls;
  const { sources } = JSON.parse(readFileSync(new URL(`${bundle}.map`), 'utf8')) as { sources: string[] };
  const carried = sources
    .filter((source) => source.startsWith('../../../'))
    .map((source) => source.slice('../../../'.length))
    .map((path) => (path.startsWith('@crawlkit/') ? `/packages/${path.slice(10)}` : `/node_modules/${path}`));
  return [...urls, ...carried];
}

/** Runs the child in `mode` with `args`; resolves to its stdout. */
type Mode = 'import' | 'scrape' | 'browser' | 'schedule' | 'worker' | 'missing';

async function childOutput(mode: Mode | 'cli', args: string[]): Promise<string> {
  const build = process.env['CK_STARTUP_BUILD'];
  const argv = [
    ...(build ? [] : ['--import', `${helpers}source-hooks.ts`]),
    `${helpers}startup-modules-child.ts`,
    mode,
    ...args,
  ];
  try {
    return (await run(process.execPath, argv, { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    // A command refused (exit 2) still prints the list as it exits.
    const { code, stdout } = error as { code?: unknown; stdout?: string };
    if (mode === 'cli' && code === 2 && stdout) return stdout;
    throw error;
  }
}

const runChild = async (mode: Mode, url?: string): Promise<unknown> =>
  JSON.parse(await childOutput(mode, url ? [url] : [])) as unknown;

/** What `crawlkit <args>` prints, and the modules it loads (the line the child adds after a newline of its own). */
async function loadedByCli(...args: string[]): Promise<{ output: string; urls: string[] }> {
  const stdout = await childOutput('cli', args);
  const end = stdout.trimEnd().lastIndexOf('\n');
  return { output: stdout.slice(0, end), urls: JSON.parse(stdout.slice(end + 1)) as string[] };
}

/** One child per mode and URL, asserted by every test that asks for it: what a start-up loads does not change. */
const runs = new Map<string, Promise<string[]>>();
const loadedBy = (mode: Exclude<Mode, 'missing'>, url?: string): Promise<string[]> => {
  const key = `${mode} ${url ?? ''}`;
  if (!runs.has(key)) runs.set(key, runChild(mode, url) as Promise<string[]>);
  return runs.get(key)!;
};

describe('start-up loads only what a call needs', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer({
      routes: {
        '/table.csv': (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/csv' });
          res.end('name,price\nplane,40\nchisel,12\n');
        },
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it("import('crawlkit') loads none of the optional features' modules", async () => {
    const urls = await loadedBy('import');
    // the engine itself was loaded (the hook saw it): an empty list would pass for the wrong reason
    expect(urls.some((u) => /\/node_modules\/undici\//.test(u))).toBe(true);
    expect(offenders(urls)).toEqual([]);
  });

  it('a plain scrape of a page to markdown loads none of them either', async () => {
    const urls = await loadedBy('scrape', `${server.url}/articles/first-post.html`);
    expect(urls.some((u) => /\/crawlkit\/(src|dist)\/scrape\//.test(u))).toBe(true);
    expect(offenders(urls)).toEqual([]);
  });

  it('a plain HTTP scrape loads neither the browser engine and its actions runner, schedules, monitors and search, nor the backend worker', async () => {
    for (const urls of [await loadedBy('import'), await loadedBy('scrape', `${server.url}/articles/first-post.html`)]) {
      // the fetcher and the engine's methods were loaded: an empty list would pass for the wrong reason
      expect(urls.some((u) => /\/fetcher\/(src|dist)\/engines\/http-page-engine\.[jt]s$/.test(u))).toBe(true);
      expect(urls.some((u) => /\/crawlkit\/(src|dist)\/schedules\/schedule-methods\.[jt]s$/.test(u))).toBe(true);
      expect(browserEngine(urls)).toEqual([]);
      expect(actionsRunner(urls)).toEqual([]);
      expect(scheduleMonitorSearch(urls)).toEqual([]);
      // the distributed backend's side (its store, leadership, a task worker) loads with `backend` only
      expect(urls.filter((u) => /\/crawlkit\/(src|dist)\/worker\//.test(u))).toEqual([]);
    }
  });

  it("a plain HTTP scrape loads not the WARC reading side (replay, index), only the writer's shell", async () => {
    for (const urls of [await loadedBy('import'), await loadedBy('scrape', `${server.url}/articles/first-post.html`)]) {
      // what it loads instead (the writer's shell): an empty list would pass for the wrong reason
      expect(urls.some((u) => /\/fetcher\/(src|dist)\/warc\/warc-writer\.[jt]s$/.test(u))).toBe(true);
      expect(urls.filter((u) => /\/fetcher\/(src|dist)\/warc\/(?!warc-writer\.[jt]s$)/.test(u))).toEqual([]);
    }
  });

  it('a page in the browser loads the browser engine, and nothing of schedules, monitors or search', async () => {
    const urls = await loadedBy('browser', `${server.url}/articles/first-post.html`);
    for (const module of [
      'engines/browser-page-engine',
      'browser/browser-pool',
      'browser/launch',
      'browser/smart-wait',
    ]) {
      expect(
        urls.some((u) => new RegExp(`/fetcher/(src|dist)/${module}\\.[jt]s$`).test(u)),
        module,
      ).toBe(true);
    }
    expect(urls.some((u) => u.includes('/node_modules/puppeteer-core/'))).toBe(true);
    // the filter of the plain scrape's case finds the runner when it is loaded
    expect(actionsRunner(urls).some((u) => /\/actions\/(src|dist)\/run-actions\.[jt]s$/.test(u))).toBe(true);
    expect(scheduleMonitorSearch(urls)).toEqual([]);
  }, 60_000);

  it("the first schedule call loads the scheduler and the monitors' checks, the first search the search", async () => {
    const urls = await loadedBy('schedule');
    const loaded = (module: string) => urls.some((u) => new RegExp(`/crawlkit/(src|dist)/${module}\\.[jt]s$`).test(u));
    for (const module of [
      'schedules/scheduler',
      'schedules/schedule-api',
      'monitors/monitor-checks',
      'search/run-search',
    ]) {
      expect(loaded(module), module).toBe(true);
    }
    // the monitors' own calls wait for a monitor call
    expect(loaded('monitors/monitor-api')).toBe(false);
    expect(browserEngine(urls)).toEqual([]);
  });

  it('the main thread leaves pages to the workers: neither the import nor a plain scrape loads the extractor there', async () => {
    expect(onMainThread(await loadedBy('import'))).toEqual([]);
    const scraped = await loadedBy('scrape', `${server.url}/articles/first-post.html`);
    expect(scraped.some((u) => /\/packages\/documents\/(src|dist)\/detect\.[jt]s$/.test(u))).toBe(true);
    expect(onMainThread(scraped)).toEqual([]);
  });

  it("the HTTP engine loads undici's agents only: not its fetch, WebSocket, cache or mocks, nor Node's own undici", async () => {
    // undici's entry module loads all of them, and its cookies module reads `globalThis.Headers`, which loads the copy
    // of undici bundled in Node (fetcher/src/http/undici-agents.ts).
    const unused = (urls: readonly string[]) =>
      urls.filter(
        (u) => /\/node_modules\/undici\/(index\.js|lib\/(web|mock|cache)\/)/.test(u) || u.includes('deps/undici'),
      );
    const imported = await loadedBy('import');
    expect(imported.some((u) => u.endsWith('/node_modules/undici/lib/dispatcher/agent.js'))).toBe(true);
    expect(imported.some((u) => u.startsWith('node:internal/'))).toBe(true);
    expect(unused(imported)).toEqual([]);
    expect(unused(await loadedBy('scrape', `${server.url}/articles/first-post.html`))).toEqual([]);
  });

  it('the extraction worker starts without them, and without zod (it validates no options)', async () => {
    const urls = withBundled(await loadedBy('worker'));
    expect(urls.some((u) => u.includes('/node_modules/htmlparser2/'))).toBe(true);
    expect(offenders(urls, ['zod', ...LOADED_WHEN_NEEDED])).toEqual([]);
  });

  it('the main thread loads no parser or decoder before a page needs it', async () => {
    // htmlparser2 reads the sitemaps the frontier's scan leaves to it; chardet and iconv-lite decode a body that
    // declares no charset and is not UTF-8, or one with a label outside WHATWG's.
    const needed = (urls: readonly string[]) =>
      urls.filter((u) =>
        [...LOADED_WHEN_NEEDED, ...DECODING, 'htmlparser2'].some((name) => u.includes(`/node_modules/${name}/`)),
      );
    expect(needed(await loadedBy('import'))).toEqual([]);
    expect(needed(await loadedBy('scrape', `${server.url}/articles/first-post.html`))).toEqual([]);
  });

  it('`crawlkit --version` and `crawlkit scrape --help` load commander and the definitions of the commands: no engine', async () => {
    // The commands' modules are loaded by the command that runs: a start, its help, or a usage mistake loads none.
    const engine = (urls: readonly string[]) =>
      urls.filter(
        (u) =>
          /\/node_modules\/(zod|undici|piscina|cli-progress)\//.test(u) ||
          (/\/packages\/(fetcher|store|extractor|documents|frontier|actions|server|mcp|redis)\/(src|dist)\//.test(u) &&
            // the HTTP limits' defaults, which the help reads (`@crawlkit/fetcher/http-limits`): constants alone
            !/\/fetcher\/(src|dist)\/(http-limits|http\/limits)\.[jt]s$/.test(u)) ||
          // engine-defaults: the constants of the engine's defaults, which the help reads
          (/\/packages\/crawlkit\/(src|dist)\//.test(u) &&
            !/\/crawlkit\/(src|dist)\/(cli\/|cli\.[jt]s$|requirements\.[jt]s$|errors\.[jt]s$|error-codes|engine-defaults\.[jt]s$)/.test(
              u,
            )),
      );
    const version = await loadedByCli('--version');
    expect(version.output).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(version.urls.some((u) => u.includes('/node_modules/commander/'))).toBe(true);
    expect(engine(version.urls)).toEqual([]);
    const help = await loadedByCli('scrape', '--help');
    expect(help.output).toContain('--only-main-content');
    expect(help.output).toContain('$ crawlkit scrape https://example.com');
    expect(engine(help.urls)).toEqual([]);
  });

  it('`crawlkit scrape URL` loads no other command, no optional feature, and no extractor on the main thread', async () => {
    const store = mkdtempSync(join(tmpdir(), 'ck-startup-cli-'));
    try {
      const { output, urls } = await loadedByCli('scrape', `${server.url}/articles/first-post.html`, '--store', store);
      expect(output).toContain('Sharpening a Hand Plane');
      expect(urls.some((u) => /\/crawlkit\/(src|dist)\/cli\/commands\.[jt]s$/.test(u))).toBe(true);
      expect(offenders(urls)).toEqual([]);
      expect(onMainThread(urls)).toEqual([]);
      const otherCommands = urls.filter((u) =>
        /\/crawlkit\/(src|dist)\/cli\/(serve|mcp|worker|search|explain|parse|replay)\.[jt]s$/.test(u),
      );
      expect(otherCommands).toEqual([]);
    } finally {
      rmSync(store, { recursive: true, force: true });
    }
  });

  it('a command refused for its input (a local file for a URL) says so without loading the engine', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-startup-cli-'));
    try {
      const file = join(dir, 'notes.pdf');
      writeFileSync(file, '%PDF-1.4\n');
      const { urls } = await loadedByCli('scrape', file, '--store', join(dir, 'store'));
      expect(urls.some((u) => /\/crawlkit\/(src|dist)\/cli\/commands\.[jt]s$/.test(u))).toBe(true);
      expect(urls.filter((u) => /\/crawlkit\/(src|dist)\/crawlkit\.[jt]s$/.test(u))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a command refused for a flag or an action says so without loading the engine or the HTTP client', async () => {
    const heavy = (urls: readonly string[]) =>
      urls.filter(
        (u) =>
          /\/node_modules\/(undici|piscina|puppeteer-core)\//.test(u) ||
          /\/crawlkit\/(src|dist)\/crawlkit\.[jt]s$/.test(u) ||
          /\/packages\/(store|extractor|frontier)\/(src|dist)\//.test(u),
      );
    for (const args of [
      ['crawl', 'https://example.com', '--engine', 'fast'],
      ['scrape', 'https://example.com', '--concurrency', 'many'],
      ['batch', '-', '--max-body-bytes', '-1'],
      ['map', 'https://example.com', '--url-policy', 'lax'],
      ['cache', 'flush'],
      ['schedules', 'pause'],
    ]) {
      const { urls } = await loadedByCli(...args, '--store', join(tmpdir(), 'ck-startup-never-made'));
      expect(
        urls.some((u) => /\/crawlkit\/(src|dist)\/cli\/context\.[jt]s$/.test(u)),
        args.join(' '),
      ).toBe(true);
      expect(heavy(urls), args.join(' ')).toEqual([]);
      // zod too, but where the command's model is read first (schedules: --model, its environment, the config file)
      if (args[0] !== 'schedules')
        expect(
          urls.filter((u) => u.includes('/node_modules/zod/')),
          args[0],
        ).toEqual([]);
    }
  });

  it('`crawlkit crawl URL` with stderr not a terminal (a pipe: a script, an agent) loads no progress bar', async () => {
    const store = mkdtempSync(join(tmpdir(), 'ck-startup-cli-'));
    try {
      const seed = `${server.url}/articles/first-post.html`;
      const { output, urls } = await loadedByCli('crawl', seed, '--limit', '1', '--ndjson', '--store', store);
      expect(output).toContain('Sharpening a Hand Plane');
      expect(urls.some((u) => /\/crawlkit\/(src|dist)\/cli\/progress\.[jt]s$/.test(u))).toBe(true);
      expect(urls.filter((u) => u.includes('/node_modules/cli-progress/'))).toEqual([]);
    } finally {
      rmSync(store, { recursive: true, force: true });
    }
  });

  it('a reader that cannot be loaded fails its document with the same typed error, and the engine goes on', async () => {
    const result = await runChild('missing', `${server.url}/table.csv`);
    expect(result).toMatchObject({ success: false, code: 'SCRAPE_DOCUMENT_PARSE_ERROR' });
    expect((result as { error: string }).error).toMatch(/CSV file could not be read: Cannot find package 'csv-parse'/);
  });
});
