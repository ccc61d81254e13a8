/**
 * `crawlkit serve` loads, before it listens, only what answering a first request needs: Fastify's schema compilers
 * (the routes declare no schema), the `uuid` package, and the optional features (MCP, Redis, the browser engine,
 * documents, LLM client, the search query) wait for their first use. The built command in a child that records every module it loads and exits at
 * its address line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, expect, it } from 'vitest';

import { ensureBuilt, startCli } from './cli-helpers.ts';

/** Records the modules the command's main thread loads; prints them and exits when it prints its address. */
const RECORDER = `
import { registerHooks } from 'node:module';
const loaded = [];
registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (!String(chunk).startsWith('http://')) return write(chunk, ...rest);
  write(JSON.stringify(loaded) + '\\n', () => process.exit(0));
  return true;
};`;

/**
 * Packages a first request does not need, as in a module's path (`.../node_modules/<entry>`). fast-json-stringify's
 * serializer stays: Fastify's error answers are written by it.
 */
const DEFERRED = [
  'ajv/',
  '@fastify/ajv-compiler/',
  'fast-json-stringify/index.js',
  '@fastify/fast-json-stringify-compiler/',
  'uuid/',
  '@modelcontextprotocol/sdk/',
  'ioredis/',
  'bullmq/',
  'puppeteer-core/',
  'pdf-parse/',
  'tesseract.js/',
  'ai/',
];

/** Modules of the workspace's packages that wait for their first use: the browser engine, the search query. */
const ENGINE_DEFERRED = [
  'fetcher/dist/engines/browser-page-engine.js',
  'fetcher/dist/browser/browser-pool.js',
  'fetcher/dist/browser/launch.js',
  'crawlkit/dist/search/run-search.js',
];

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ck-serve-modules-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('listens without the modules of what no first request needs', async () => {
  const child = startCli(['serve', '--port', '0', '--store', join(dir, 'store')], {
    cwd: dir,
    env: { NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(RECORDER)}` },
  });
  const { code, stdout, stderr } = await child.result;
  expect(code, stderr).toBe(0);
  const loaded = JSON.parse(stdout.trim()) as string[];
  const early = loaded.filter((url) => DEFERRED.some((name) => url.includes(`/node_modules/${name}`)));
  expect(early).toEqual([]);
  expect(loaded.some((url) => url.includes('/node_modules/fastify/'))).toBe(true);
  // The engine's own lazy parts, by module: the browser engine and the search query wait for their first use.
  const engine = loaded.filter((url) => ENGINE_DEFERRED.some((path) => url.endsWith(`/packages/${path}`)));
  expect(engine).toEqual([]);
  expect(loaded.some((url) => url.endsWith('/packages/fetcher/dist/engines/http-page-engine.js'))).toBe(true);
}, 60_000);
