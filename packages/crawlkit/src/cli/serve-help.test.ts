import { describe, expect, it } from 'vitest';

import { ENGINE_DEFAULTS } from '../engine-defaults.js';
import { CommandContext } from './context.js';
import { OPENAI_DEFAULT_MODEL } from './model-flags.js';
import { createProgram } from './program.js';
import { resolveLlmSettings } from './serve-config.js';

/** Flags whose help needs no default: they are switches of output or behaviour that are off unless given. */
const SWITCHES = new Set([
  '--quiet',
  '--help',
  '--redis-allow-eviction',
  '--no-redis-search-index',
  '--no-migration-copy',
]);

describe('serve --help', () => {
  it('gives the default of every flag an operator sets, the URL policy and the secrets first of all', () => {
    const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin } as never;
    const serve = createProgram(io, new AbortController().signal, () => {}).commands.find((c) => c.name() === 'serve')!;
    const without = serve.options
      .filter(
        (option) =>
          !SWITCHES.has(option.long!) && option.defaultValue === undefined && !/default/i.test(option.description),
      )
      .map((option) => option.long);
    expect(without).toEqual([]);
    const help = (flag: string) => serve.options.find((option) => option.long === flag)!.description;
    expect(help('--url-policy')).toMatch(
      /default: every address; serve and mcp on an interface other than loopback: strict/,
    );
    // A secret given as a flag is in the process list for every user of the machine to read.
    for (const flag of ['--api-key', '--webhook-secret', '--proxy', '--brave-api-key']) {
      expect(help(flag), flag).toMatch(/which ps does not show/);
    }
  });

  it('says the defaults the code takes, read from their one home', () => {
    const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin } as never;
    const serve = createProgram(io, new AbortController().signal, () => {}).commands.find((c) => c.name() === 'serve')!;
    const help = (flag: string) => serve.options.find((option) => option.long === flag)!.description;
    const saved = process.env.CRAWLKIT_STORE;
    delete process.env.CRAWLKIT_STORE;
    try {
      const taken = new CommandContext(io, {}, new AbortController().signal).storeDir;
      expect(help('--store')).toContain(`(default ${taken})`);
      expect(taken).toBe(ENGINE_DEFAULTS.storeDir);
    } finally {
      if (saved !== undefined) process.env.CRAWLKIT_STORE = saved;
    }
    const model = resolveLlmSettings({}, { OPENAI_API_KEY: 'sk-test' })?.model;
    expect(model).toBe(OPENAI_DEFAULT_MODEL);
    expect(help('--model')).toContain(`default: ${model} on the OpenAI API`);
  });
});
