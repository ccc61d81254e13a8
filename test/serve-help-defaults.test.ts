/**
 * `serve --help` says the defaults the server and the engine take (qa47b's Left, the brief of b53: one home for each
 * default). The listener's (port, host, body limit, queue limit, the body and close time-outs) were literals in the
 * CLI's help and again in `@crawlkit/server`'s schema, the engine's (store, concurrency, parse file limit, job TTL,
 * resume scan, engine, extraction budget, robots time-out, worker memory) and the HTTP engine's body limit in the help and `options.ts`; they read
 * `LISTENER_DEFAULTS` and `ENGINE_DEFAULTS` now. The server
 * and the engine resolved with no options are the truth the help is held to.
 */
import { LISTENER_DEFAULTS } from '@crawlkit/options';
import { resolveServerOptions } from '@crawlkit/server';
import { Crawlkit } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { createProgram } from '../packages/crawlkit/src/cli/program.ts';
import { resolveLimits } from '../packages/fetcher/src/http/limits.ts';
import { resolveOptions } from '../packages/crawlkit/src/options.ts';

describe('serve --help', () => {
  it('says the defaults the server takes when none is given', async () => {
    const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin } as never;
    const serve = createProgram(io, new AbortController().signal, () => {}).commands.find((c) => c.name() === 'serve')!;
    const help = (flag: string) => serve.options.find((option) => option.long === flag)!.description;
    const crawlkit = new Crawlkit({ store: 'memory' });
    try {
      const taken = resolveServerOptions({ crawlkit });
      expect(help('--port')).toContain(`(default ${taken.port})`);
      expect(help('--host')).toContain(`(default ${taken.host};`);
      expect(help('--body-limit')).toContain(`(default ${taken.bodyLimit})`);
      expect(help('--queue-limit')).toContain(`(default ${taken.queueLimit})`);
      expect(help('--body-timeout')).toContain(`(default ${taken.bodyTimeoutMs})`);
      expect(help('--close-timeout')).toContain(`(default ${taken.closeTimeoutMs};`);
      expect(help('--parse-file-limit')).toContain(`(default ${taken.parseFileLimit})`);
      // Unset, the server asks the store for LISTENER_DEFAULTS.readyMinFreeMb (or an eighth of its room when less).
      expect(taken.readyMinFreeMb).toBeUndefined();
      expect(help('--ready-min-free')).toContain(`(default ${LISTENER_DEFAULTS.readyMinFreeMb}, or an eighth`);
    } finally {
      await crawlkit.close();
    }
    // The engine's, as `new Crawlkit()` resolves them.
    const engine = resolveOptions({});
    expect(help('--store')).toContain(`(default ${engine.storeDir})`);
    expect(help('--concurrency')).toContain(`(default ${engine.concurrency})`);
    expect(help('--job-ttl')).toContain(`(default ${engine.jobResultTtlMs}:`);
    expect(help('--resume-scan')).toContain(`(default ${engine.resumeScanMs})`);
    expect(help('--engine')).toContain(`(default ${engine.engine})`);
    expect(help('--extraction-budget')).toContain(`default ${engine.extractionBudgetMs})`);
    expect(help('--robots-timeout')).toContain(`default ${engine.robotsTimeoutMs})`);
    expect(help('--worker-memory')).toContain(`default ${engine.workers.maxMemoryMb}, least`);
    // The HTTP engine's, as it resolves its limits when none is given.
    expect(help('--max-body-bytes')).toContain(`default ${resolveLimits({}).maxBodyBytes})`);
  });
});
