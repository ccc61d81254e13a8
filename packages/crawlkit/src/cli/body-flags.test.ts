import { DEFAULT_TIMEOUT_MS } from '@crawlkit/fetcher';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';

import { addBodyFlags } from './body-flags.js';

describe('the body flags in --help', () => {
  it("give --timeout's default, the engine's timeoutMs, on every command that takes it", () => {
    for (const name of ['scrape', 'crawl', 'batch'] as const) {
      const timeout = addBodyFlags(new Command(name), name).options.find((o) => o.long === '--timeout')!;
      expect(timeout.description, name).toContain(`default ${DEFAULT_TIMEOUT_MS}`);
    }
  });
});
