/**
 * `serve --help` says the defaults the server takes (qa47b's Left, the brief of b53: one home for each default). The
 * listener's (port, host, body limit, queue limit, the body and close time-outs) were literals in the CLI's help and
 * again in `@crawlkit/server`'s schema; both read `LISTENER_DEFAULTS` now. The server resolved with no options is the
 * truth the help is held to.
 */
import { resolveServerOptions } from '@crawlkit/server';
import { Crawlkit } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { createProgram } from '../packages/crawlkit/src/cli/program.ts';

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
    } finally {
      await crawlkit.close();
    }
  });
});
