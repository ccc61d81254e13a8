/**
 * Every entry point tells a user on an unsupported Node.js what to install (issue 38): the CLI, its `serve` and
 * `worker` commands, and the import of `crawlkit` and `@crawlkit/server`, run with the machine's own older Node (the
 * workspace runs on Node 24 through pnpm; the system `node` is 20). Skipped, visibly, where no older Node is found.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { CLI, ensureBuilt } from './cli-helpers.ts';
import { olderNode } from '../scripts/packed/old-node.ts';

const node = olderNode();
if (!node) process.stderr.write('\n[node-requirements] SKIPPED: no Node.js older than 22.16 on this machine\n');
const dir = mkdtempSync(join(tmpdir(), 'ck-old-node-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const root = new URL('..', import.meta.url);
const run = (args: string[]) => spawnSync(node!, args, { cwd: dir, encoding: 'utf8', timeout: 20_000 });

describe.skipIf(!node)('an older Node.js', () => {
  it('is told by the CLI, serve and worker what to install, with exit code 1', { timeout: 120_000 }, () => {
    ensureBuilt();
    for (const args of [
      ['scrape', 'http://127.0.0.1:9/'],
      ['serve', '--port', '0'],
      ['worker', '--redis', 'redis://127.0.0.1:9'],
      ['--version'],
    ]) {
      const result = run([CLI, ...args]);
      expect(result.status, args.join(' ')).toBe(1);
      expect(result.stderr).toMatch(/^crawlkit needs Node\.js 22\.16 or later .* this is Node\.js 2\d\.\d+\.\d+ /);
      expect(result.stderr).toContain('nvm install --lts');
      expect(result.stderr).toContain('(NODE_UNSUPPORTED)');
      expect(result.stderr).not.toContain('UNKNOWN_ERROR');
      expect(result.stdout).toBe('');
    }
  });

  it('is one JSON line of the log under --log-format json, for serve and worker', () => {
    ensureBuilt();
    for (const args of [
      ['serve', '--port', '0', '--log-format', 'json'],
      ['worker', '--redis', 'redis://127.0.0.1:9', '--log-format=json'],
    ]) {
      const result = run([CLI, ...args]);
      expect(result.status, args.join(' ')).toBe(1);
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines, result.stderr).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toEqual({
        time: expect.stringMatching(/Z$/),
        level: 'error',
        msg: expect.stringMatching(/^crawlkit needs Node\.js 22\.16 or later .*nvm install --lts/),
        event: 'start-failed',
        code: 'NODE_UNSUPPORTED',
      });
    }
  });

  it('fails the import of crawlkit and @crawlkit/server with NODE_UNSUPPORTED', () => {
    for (const entry of ['packages/crawlkit/dist/index.js', 'packages/server/dist/index.js']) {
      const url = pathToFileURL(new URL(entry, root).pathname).href;
      const script = `import(${JSON.stringify(url)}).then(() => console.log('loaded'), (e) => console.log(e.code, e.message))`;
      const result = run(['--input-type=module', '-e', script]);
      expect(result.stdout).toMatch(/^NODE_UNSUPPORTED crawlkit needs Node\.js 22\.16 or later/);
    }
  });

  it("fails require('crawlkit') with NODE_UNSUPPORTED, also where Node cannot require() ES modules", () => {
    const app = join(dir, 'app');
    mkdirSync(join(app, 'node_modules'), { recursive: true });
    symlinkSync(new URL('packages/crawlkit', root).pathname, join(app, 'node_modules', 'crawlkit'));
    const script = `try { require('crawlkit'); console.log('loaded') } catch (e) { console.log(e.code, e.message) }`;
    // Node before 20.19 (22.12 on 22) has no require() of ES modules; a later one is made to behave so.
    const [major = 0, minor = 0] = spawnSync(node!, ['-p', 'process.versions.node'], { encoding: 'utf8' })
      .stdout.split('.')
      .map(Number);
    const canRequireEsm = major > 22 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19);
    const runs = [[], ...(canRequireEsm ? [['--no-experimental-require-module']] : [])];
    for (const flags of runs) {
      const result = spawnSync(node!, [...flags, '-e', script], { cwd: app, encoding: 'utf8', timeout: 20_000 });
      expect(result.stdout, flags.join(' ')).toMatch(/^NODE_UNSUPPORTED crawlkit needs Node\.js 22\.16 or later/);
      expect(result.stdout).toContain('nvm install --lts');
      expect(result.stdout).not.toContain('dynamic import()');
    }
  });
});

describe('a supported Node.js with require() of ES modules turned off', () => {
  it("is told by require('crawlkit') to remove the flag or import(), not to install the Node.js it has", () => {
    ensureBuilt();
    const app = join(dir, 'flagged-app');
    mkdirSync(join(app, 'node_modules'), { recursive: true });
    symlinkSync(new URL('packages/crawlkit', root).pathname, join(app, 'node_modules', 'crawlkit'));
    const script = `try { require('crawlkit'); console.log('loaded') } catch (e) { console.log(e.code, e.message) }`;
    const result = spawnSync(process.execPath, ['--no-experimental-require-module', '-e', script], {
      cwd: app,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.stdout).toMatch(
      /^NODE_UNSUPPORTED this Node\.js \d+\.\d+\.\d+ \(.+\) can require\(\) crawlkit's ES modules, but that is turned off \(--no-experimental-require-module/,
    );
    expect(result.stdout).toContain("await import('crawlkit')");
    expect(result.stdout).not.toContain('Install Node.js');
  });
});

describe("a require() that is not Node.js's own (a test runner's module registry)", () => {
  it('is told that the loader cannot load ES modules and how to run Jest, not to remove a flag it never gave', () => {
    ensureBuilt();
    // What Jest's runtime does without --experimental-vm-modules: it reads and wraps each CommonJS file itself, and
    // its require() of an ES module throws ERR_REQUIRE_ESM ("Must use import to load ES Module: <path>").
    const entry = new URL('packages/crawlkit/dist/require.cjs', root).pathname;
    const script = `
      const { createRequire, wrap } = require('node:module');
      const { readFileSync } = require('node:fs');
      const { runInThisContext } = require('node:vm');
      const entry = ${JSON.stringify(entry)};
      const nodeRequire = createRequire(entry);
      const registryRequire = (id) => {
        const path = nodeRequire.resolve(id);
        if (!path.endsWith('.js')) return nodeRequire(id);
        throw Object.assign(new Error('Must use import to load ES Module: ' + path + '\\n\\nThe file contains ESM.'), {
          code: 'ERR_REQUIRE_ESM',
        });
      };
      const module = { exports: {} };
      try {
        runInThisContext(wrap(readFileSync(entry, 'utf8')))(module.exports, registryRequire, module, entry, '.');
        console.log('loaded');
      } catch (e) {
        console.log(e.code, e.message);
      }`;
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000, env });
    expect(result.stdout).toMatch(
      /^NODE_UNSUPPORTED crawlkit's ES modules were require\(\)d by a module loader that is not Node\.js's own and cannot load them \(Must use import to load ES Module: .+index\.js\)\./,
    );
    expect(result.stdout).toContain('NODE_OPTIONS=--experimental-vm-modules');
    expect(result.stdout).not.toContain('--no-experimental-require-module');
    expect(result.stdout).not.toContain('The file contains ESM');
  });
});
