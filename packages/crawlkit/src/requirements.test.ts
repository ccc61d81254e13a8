import { describe, expect, it } from 'vitest';

import { runtimeProblem } from './requirements.js';

const sqlite = (id: string) => (id === 'node:sqlite' ? {} : undefined);

describe('runtimeProblem', () => {
  it('accepts Node 22.13 and later with node:sqlite', () => {
    for (const version of ['22.13.0', '22.20.1', '23.4.0', '24.21.0', '30.0.0']) {
      expect(runtimeProblem({ version, execPath: '/n', getBuiltinModule: sqlite })).toBeUndefined();
    }
  });

  it('names the version needed, the one found and what to install', () => {
    for (const version of ['20.20.2', '22.12.0', '18.0.0']) {
      const problem = runtimeProblem({ version, execPath: '/usr/bin/node', getBuiltinModule: sqlite });
      expect(problem).toContain('Node.js 22.13 or later');
      expect(problem).toContain(`this is Node.js ${version} (/usr/bin/node)`);
      expect(problem).toContain('nvm install --lts');
    }
    // Node 18 has no process.getBuiltinModule at all.
    expect(runtimeProblem({ version: '18.20.0', execPath: '/n' })).toContain('22.13 or later');
  });

  it('refuses a recent Node built without node:sqlite', () => {
    const problem = runtimeProblem({ version: '24.1.0', execPath: '/n', getBuiltinModule: () => undefined });
    expect(problem).toMatch(/needs the node:sqlite module, which this Node.js 24.1.0 \(\/n\) lacks/);
  });
});
