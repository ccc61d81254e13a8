import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

/** Package tests that check what a process loads first, or change it for the rest of its life. */
const FRESH_PROCESS = [
  // undici's entry must not be loaded yet when it starts.
  'packages/fetcher/src/http/undici-agents.test.ts',
  // Loads the unpatched pdf.js worker into the thread, where it stays: a later PDF parse there would fail.
  'packages/extractor/src/pdf/pdfjs-worker.test.ts',
  // Snapshots its process's heap: 1.8 s in a process of its own, past 30 s in one that earlier files filled.
  'packages/extractor/src/page-memory.test.ts',
];

/** End-to-end tests that keep a fresh process per file. */
const FRESH_E2E = [
  // Measures a serve's loop and memory while 480 MB go through four WebSockets: ran out of its 30 s shared, in a run
  // of two suites at once.
  'test/large-job-reads.test.ts',
];

/** Where files share a process, it keeps its extraction threads from one engine to the next. */
const HOLD_EXTRACTION_THREADS = './test/setup/extraction-threads.ts';

// Tests import the workspace packages from source, so `pnpm test` needs no build.
export default defineConfig({
  resolve: {
    alias: {
      // Subpath entries before their package's name, which would otherwise take them as paths below its index.
      '@crawlkit/fetcher/analysis': fileURLToPath(new URL('./packages/fetcher/src/analysis.ts', import.meta.url)),
      '@crawlkit/fetcher/warc': fileURLToPath(new URL('./packages/fetcher/src/warc.ts', import.meta.url)),
      '@crawlkit/fetcher/http-limits': fileURLToPath(new URL('./packages/fetcher/src/http-limits.ts', import.meta.url)),
      '@crawlkit/fetcher': src('fetcher'),
      '@crawlkit/options/lazy-module': fileURLToPath(new URL('./packages/options/src/lazy-module.ts', import.meta.url)),
      '@crawlkit/options/invalid-option-error': fileURLToPath(
        new URL('./packages/options/src/invalid-option-error.ts', import.meta.url),
      ),
      '@crawlkit/options/site-host': fileURLToPath(new URL('./packages/options/src/site-host.ts', import.meta.url)),
      '@crawlkit/options/session-params': fileURLToPath(
        new URL('./packages/options/src/session-params.ts', import.meta.url),
      ),
      '@crawlkit/options/route-fragment': fileURLToPath(
        new URL('./packages/options/src/route-fragment.ts', import.meta.url),
      ),
      '@crawlkit/options/retry-later': fileURLToPath(new URL('./packages/options/src/retry-later.ts', import.meta.url)),
      '@crawlkit/options/process-gone': fileURLToPath(
        new URL('./packages/options/src/process-gone.ts', import.meta.url),
      ),
      '@crawlkit/options/temp-dir': fileURLToPath(new URL('./packages/options/src/temp-dir.ts', import.meta.url)),
      '@crawlkit/options/quiet-sqlite': fileURLToPath(
        new URL('./packages/options/src/quiet-sqlite.ts', import.meta.url),
      ),
      '@crawlkit/options/text-decoder': fileURLToPath(
        new URL('./packages/options/src/text-decoder.ts', import.meta.url),
      ),
      '@crawlkit/options/size-text': fileURLToPath(new URL('./packages/options/src/size-text.ts', import.meta.url)),
      '@crawlkit/options/redact-url': fileURLToPath(new URL('./packages/options/src/redact-url.ts', import.meta.url)),
      '@crawlkit/options/redis-url': fileURLToPath(new URL('./packages/options/src/redis-url.ts', import.meta.url)),
      '@crawlkit/options/sorted-json': fileURLToPath(new URL('./packages/options/src/sorted-json.ts', import.meta.url)),
      '@crawlkit/options/within-budget': fileURLToPath(
        new URL('./packages/options/src/within-budget.ts', import.meta.url),
      ),
      '@crawlkit/options/listener-options': fileURLToPath(
        new URL('./packages/options/src/listener-options.ts', import.meta.url),
      ),
      '@crawlkit/options': src('options'),
      '@crawlkit/actions/capture-url': fileURLToPath(new URL('./packages/actions/src/capture-url.ts', import.meta.url)),
      '@crawlkit/actions/schema': fileURLToPath(new URL('./packages/actions/src/schema.ts', import.meta.url)),
      '@crawlkit/actions/sleep': fileURLToPath(new URL('./packages/actions/src/sleep.ts', import.meta.url)),
      '@crawlkit/actions': src('actions'),
      '@crawlkit/extractor/branding-script': fileURLToPath(
        new URL('./packages/extractor/src/branding-script.ts', import.meta.url),
      ),
      '@crawlkit/extractor/page-warnings': fileURLToPath(
        new URL('./packages/extractor/src/page-warnings.ts', import.meta.url),
      ),
      '@crawlkit/extractor': src('extractor'),
      '@crawlkit/documents/detect': fileURLToPath(new URL('./packages/documents/src/detect.ts', import.meta.url)),
      '@crawlkit/documents': src('documents'),
      '@crawlkit/frontier': src('frontier'),
      '@crawlkit/store/conformance': fileURLToPath(new URL('./packages/store/src/conformance.ts', import.meta.url)),
      '@crawlkit/store/text-digest': fileURLToPath(new URL('./packages/store/src/text-digest.ts', import.meta.url)),
      '@crawlkit/store/search-terms': fileURLToPath(new URL('./packages/store/src/search-terms.ts', import.meta.url)),
      '@crawlkit/store': src('store'),
      '@crawlkit/redis': src('redis'),
      '@crawlkit/server': src('server'),
      '@crawlkit/mcp': src('mcp'),
      crawlkit: src('crawlkit'),
    },
  },
  test: {
    env: {
      // Node keeps the compiled code of what a process loads natively (dependencies, the built CLI, the TypeScript
      // sources a child runs through test/helpers/source-hooks.ts) and the next process reuses it: the test processes
      // and every child that inherits their environment. A child importing crawlkit's sources took 0.9 s of CPU
      // without it, 0.4 s with it.
      NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(tmpdir(), 'crawlkit-test-compile-cache'),
    },
    // One Chromium for the run, which files that only need a browser connect to (test/setup/shared-browser.ts).
    globalSetup: ['./test/setup/shared-browser.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default in run mode is one worker fewer than the cores: on this 2-core machine the files ran one at a
    // time (755 s); most wait on a browser, a server or timers, and two at a time took 579 s with every test passing.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'packages',
          include: ['packages/*/src/**/*.test.ts', 'bench/lib/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...FRESH_PROCESS],
          setupFiles: [HOLD_EXTRACTION_THREADS],
          // The packages' tests share a process and its loaded modules across files: a fresh process per file spent
          // more CPU importing than testing (these 158 files: 177 s of CPU isolated, 120 s shared), and CPU is what
          // two suites at once on two cores run out of. Each file still closes what it opens.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...FRESH_E2E],
          setupFiles: [HOLD_EXTRACTION_THREADS],
          // Shared as the packages' are: each end-to-end file imported crawlkit's sources again in a fresh process.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          // The files above that need a process of their own: one fresh process per file.
          include: [...FRESH_E2E, ...FRESH_PROCESS],
        },
      },
    ],
  },
});
