/** A Node.js on this machine older than crawlkit needs, to check what an unsupported Node is told. */
import { spawnSync } from 'node:child_process';

import { MIN_NODE } from '../../packages/crawlkit/src/requirements.ts';

/** Executables named `name` on PATH, in order (`which -a`). */
export function onPath(name: string): string[] {
  const found = spawnSync('which', ['-a', name], { encoding: 'utf8' }).stdout ?? '';
  return found.split('\n').filter(Boolean);
}

/** The first `node` on PATH (then /usr/bin/node, /usr/local/bin/node) older than `MIN_NODE`, if any. */
export function olderNode(): string | undefined {
  for (const node of [...onPath('node'), '/usr/bin/node', '/usr/local/bin/node']) {
    const version = spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout?.trim();
    if (!version) continue;
    const [major = 0, minor = 0] = version.split('.').map(Number);
    if (major < MIN_NODE[0] || (major === MIN_NODE[0] && minor < MIN_NODE[1])) return node;
  }
  return undefined;
}
