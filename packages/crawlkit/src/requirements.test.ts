import { describe, expect, it } from 'vitest';

import { bundleProblem, runtimeProblem } from './requirements.js';

/** A `node:sqlite` whose databases take any statement (with FTS5), or refuse FTS5 tables (without). */
function sqliteModule(fts5: boolean) {
  return {
    DatabaseSync: class {
      exec(sql: string) {
        if (!fts5 && /fts5/.test(sql)) throw new Error('no such module: fts5');
      }
      close() {}
    },
  };
}
const sqlite = (id: string) => (id === 'node:sqlite' ? sqliteModule(true) : undefined);

describe('runtimeProblem', () => {
  it('accepts Node 22.16 and later with node:sqlite and FTS5', () => {
    for (const version of ['22.16.0', '22.20.1', '24.0.0', '24.21.0', '30.0.0']) {
      expect(runtimeProblem({ version, execPath: '/n', getBuiltinModule: sqlite })).toBeUndefined();
    }
  });

  it('names the version needed, the one found and what to install', () => {
    for (const version of ['20.20.2', '22.12.0', '22.13.0', '22.15.1', '18.0.0']) {
      const problem = runtimeProblem({ version, execPath: '/usr/bin/node', getBuiltinModule: sqlite });
      expect(problem).toContain('Node.js 22.16 or later');
      expect(problem).toContain(`this is Node.js ${version} (/usr/bin/node)`);
      expect(problem).toContain('nvm install --lts');
    }
    // Node 18 has no process.getBuiltinModule at all.
    expect(runtimeProblem({ version: '18.20.0', execPath: '/n' })).toContain('22.16 or later');
  });

  it('refuses a recent Node built without node:sqlite', () => {
    const problem = runtimeProblem({ version: '24.1.0', execPath: '/n', getBuiltinModule: () => undefined });
    expect(problem).toMatch(/needs the node:sqlite module, which this Node.js 24.1.0 \(\/n\) lacks/);
  });

  it('refuses a Node whose node:sqlite has no FTS5 (every Node 23), saying what to install', () => {
    const without = (id: string) => (id === 'node:sqlite' ? sqliteModule(false) : undefined);
    const problem = runtimeProblem({ version: '23.11.0', execPath: '/n', getBuiltinModule: without });
    expect(problem).toMatch(/needs SQLite's FTS5 .* this Node\.js 23\.11\.0 \(\/n\) was built without/);
    expect(problem).toContain('Install Node.js 22.16 or later');
  });

  it('checks Bun and Deno by feature, not by the Node version they report, and names them when they fall short', () => {
    const bun = { name: 'Bun', version: '1.2.0' } as const;
    // Bun 1.2 reports Node 22.6 and has no process.getBuiltinModule; Bun 1.4.5 reports 26.3.0.
    const old = runtimeProblem({ version: '22.6.0', execPath: '/b/bun', other: bun });
    expect(old).toContain('needs the node:sqlite module with FTS5 (its store), which this Bun 1.2.0 (/b/bun) lacks');
    expect(old).toContain('checked on Bun 1.4.5 (`bun upgrade`); or install Node.js 22.16 or later');
    expect(old).not.toContain('this is Node.js');
    const deno = { name: 'Deno', version: '2.1.0' } as const;
    const without = (id: string) => (id === 'node:sqlite' ? sqliteModule(false) : undefined);
    expect(runtimeProblem({ version: '22.0.0', execPath: '/d', other: deno, getBuiltinModule: without })).toMatch(
      /which this Deno 2\.1\.0 \(\/d\) has without FTS5\. crawlkit is checked on Deno 2\.9\.6 \(`deno upgrade`\)/,
    );
    // A runtime with what crawlkit needs passes, whatever Node version it reports.
    expect(runtimeProblem({ version: '22.6.0', execPath: '/b', other: bun, getBuiltinModule: sqlite })).toBeUndefined();
  });

  it("loads node:sqlite without Node 22's ExperimentalWarning, and lets every other warning through", async () => {
    const warnings: string[] = [];
    // Node's own listener (which prints them) is put back after the test.
    const listeners = process.listeners('warning');
    process.removeAllListeners('warning');
    process.on('warning', (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`));
    try {
      // What Node 22's node:sqlite does on its first load; then a warning of another kind, and one of crawlkit's own.
      const noisy = (id: string) => {
        process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning');
        process.emitWarning('SQLite is an experimental feature', { type: 'ExperimentalWarning' });
        process.emitWarning('VM Modules is an experimental feature', 'ExperimentalWarning');
        process.emitWarning('something else', 'DeprecationWarning');
        return sqlite(id);
      };
      const before = Object.getOwnPropertyDescriptor(process, 'emitWarning');
      expect(runtimeProblem({ version: '22.16.0', execPath: '/n', getBuiltinModule: noisy })).toBeUndefined();
      expect(Object.getOwnPropertyDescriptor(process, 'emitWarning')).toEqual(before);
      process.emitWarning('after the check', 'ExperimentalWarning');
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.removeAllListeners('warning');
      for (const listener of listeners) process.on('warning', listener);
    }
    expect(warnings).toEqual([
      'ExperimentalWarning: VM Modules is an experimental feature',
      'DeprecationWarning: something else',
      'ExperimentalWarning: after the check',
    ]);
  });

  it("finds FTS5 in this Node's own node:sqlite", () => {
    expect(runtimeProblem()).toBeUndefined();
  });
});

describe('bundleProblem', () => {
  it("accepts the checking module's own URL, built or from source", () => {
    for (const url of [
      'file:///app/node_modules/crawlkit/dist/assert-runtime.js',
      new URL('./assert-runtime.ts', import.meta.url).href,
    ]) {
      expect(bundleProblem(url)).toBeUndefined();
    }
  });

  it('names an ES module bundle, or a CommonJS one, and what to mark external', () => {
    expect(bundleProblem('file:///srv/app/dist/server.mjs')).toMatch(
      /bundled into your app's file \(file:\/\/\/srv\/app\/dist\/server\.mjs\).*--packages=external/,
    );
    expect(bundleProblem(undefined)).toContain('(a CommonJS bundle)');
    // webpack and Turbopack write the module's own path for import.meta.url
    expect(bundleProblem('file:///app/node_modules/crawlkit/dist/assert-runtime.js', 'webpack')).toContain(
      '(a webpack bundle)',
    );
  });
});
