import { DEFAULT_TIMEOUT_MS } from '@crawlkit/fetcher';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';

import { scrapeOptionsSchema } from '../v2/scrape-options.js';
import { addBodyFlags, buildBody, type BodyCommand } from './body-flags.js';

/** The v2 body a command builds from `args`, on top of a `--body`'s `base`. */
function body(name: BodyCommand, args: string[], base: Record<string, unknown> = {}): Record<string, unknown> {
  const command = addBodyFlags(new Command(name).exitOverride(), name);
  command.parse(args, { from: 'user' });
  return buildBody(command, name, base, {});
}

describe('the body flags in --help', () => {
  it("give --timeout's default, the engine's timeoutMs, on every command that takes it", () => {
    for (const name of ['scrape', 'crawl', 'batch'] as const) {
      const timeout = addBodyFlags(new Command(name), name).options.find((o) => o.long === '--timeout')!;
      expect(timeout.description, name).toContain(`default ${DEFAULT_TIMEOUT_MS}`);
    }
  });
});

describe('the cache flags', () => {
  it("set lockdown and minAge on a scrape and in a crawl's and batch's scrape options", () => {
    expect(body('scrape', ['--lockdown', '--min-age', '60000'])).toMatchObject({ lockdown: true, minAge: 60_000 });
    expect(body('crawl', ['--lockdown'])).toMatchObject({ scrapeOptions: { lockdown: true } });
    expect(body('batch', ['--min-age', '1000'])).toMatchObject({ minAge: 1_000 });
    expect(scrapeOptionsSchema.safeParse(body('scrape', ['--lockdown', '--min-age', '5'])).success).toBe(true);
  });
});

describe('--change-modes and --change-tag', () => {
  it('make the changeTracking of --format the object that asks for a diff in a history of its own', () => {
    const scrape = body('scrape', [
      '-f',
      'markdown,changeTracking',
      '--change-modes',
      'git-diff',
      '--change-tag',
      'daily',
    ]);
    expect(scrape).toEqual({
      formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'], tag: 'daily' }],
    });
    // The API takes it as it is.
    expect(scrapeOptionsSchema.safeParse(scrape).success).toBe(true);
    expect(body('crawl', ['-f', 'markdown,changeTracking', '--change-modes', 'git-diff,json'])).toEqual({
      scrapeOptions: { formats: ['markdown', { type: 'changeTracking', modes: ['git-diff', 'json'] }] },
    });
  });

  it("keep what a --body gave the format (the json mode's schema), and are refused without the format", () => {
    const schema = { type: 'object', properties: { price: { type: 'number' } } };
    const base = { formats: ['markdown', { type: 'changeTracking', modes: ['json'], schema }] };
    expect(body('batch', ['--change-tag', 'prices'], base)).toEqual({
      formats: ['markdown', { type: 'changeTracking', modes: ['json'], schema, tag: 'prices' }],
    });
    expect(() => body('scrape', ['-f', 'markdown', '--change-modes', 'git-diff'])).toThrow(
      /--change-modes and --change-tag describe the changeTracking format: add it to --format/,
    );
  });
});

describe('the format-object flags together', () => {
  it("each turn their own format into its object, in place, on a scrape and in a crawl's scrapeOptions", () => {
    const args = [
      '-f',
      'markdown,json,changeTracking,screenshot',
      '--schema',
      '{"type":"object"}',
      '--json-prompt',
      'the price',
      '--change-modes',
      'git-diff',
      '--full-page-screenshot',
    ];
    const formats = [
      'markdown',
      { type: 'json', schema: { type: 'object' }, prompt: 'the price' },
      { type: 'changeTracking', modes: ['git-diff'] },
      { type: 'screenshot', fullPage: true },
    ];
    for (const name of ['scrape', 'batch'] as const) expect(body(name, args), name).toEqual({ formats });
    expect(body('crawl', args)).toEqual({ scrapeOptions: { formats } });
  });

  it("leave a --body's formats as they are when none is given, and add the full-page screenshot when missing", () => {
    const base = { formats: ['markdown', { type: 'screenshot', quality: 50 }] };
    expect(body('scrape', [], base)).toEqual(base);
    expect(body('scrape', ['--full-page-screenshot'], base)).toEqual({
      formats: ['markdown', { type: 'screenshot', quality: 50, fullPage: true }],
    });
    expect(body('scrape', ['-f', 'markdown', '--full-page-screenshot'])).toEqual({
      formats: ['markdown', { type: 'screenshot', fullPage: true }],
    });
  });
});

describe('--parsers', () => {
  it('takes names as a list, and JSON when its value starts with [ or { (an object is a list of one)', () => {
    expect(body('scrape', ['--parsers', 'pdf, image'])).toEqual({ parsers: ['pdf', 'image'] });
    expect(body('scrape', ['--parsers', ''])).toEqual({ parsers: [] });
    expect(body('scrape', ['--parsers', '[{"type":"pdf","maxPages":2}]'])).toEqual({
      parsers: [{ type: 'pdf', maxPages: 2 }],
    });
    expect(body('crawl', ['--parsers', ' {"type":"pdf","mode":"fast"}'])).toEqual({
      scrapeOptions: { parsers: [{ type: 'pdf', mode: 'fast' }] },
    });
    expect(scrapeOptionsSchema.safeParse(body('scrape', ['--parsers', '[{"type":"pdf","maxPages":2}]'])).success).toBe(
      true,
    );
    // --pdf-max-pages sets the maxPages of the object's pdf entry, keeping its other fields
    expect(body('batch', ['--parsers', '[{"type":"pdf","mode":"fast"},"image"]', '--pdf-max-pages', '3'])).toEqual({
      parsers: [{ type: 'pdf', mode: 'fast', maxPages: 3 }, 'image'],
    });
  });

  it('refuses JSON it cannot read, naming the flag and what to write', () => {
    expect(() => body('scrape', ['--parsers', '[{type:pdf}]'])).toThrow(
      /^--parsers is not valid JSON: .*; write it as --parsers '\[\{"type":"pdf","maxPages":2\}\]'$/,
    );
  });
});
