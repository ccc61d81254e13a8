import { DEFAULT_PDF_MAX_PAGES, PDF_MAX_PAGES_LIMIT } from '@crawlkit/extractor';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';

import { scrapeOptionsSchema } from '../v2/scrape-options.js';
import { addBodyFlags, buildBody, type BodyCommand } from './body-flags.js';
import { PDF_MAX_PAGES_FLAG } from './pdf-pages.js';

function body(name: BodyCommand, args: string[], base: Record<string, unknown> = {}): Record<string, unknown> {
  const command = addBodyFlags(new Command(name).exitOverride(), name);
  command.parse(args, { from: 'user' });
  return buildBody(command, name, base, {});
}

describe('--pdf-max-pages', () => {
  it("gives the parser's default and the request schema's ceiling in --help", () => {
    expect(PDF_MAX_PAGES_FLAG.description).toContain(
      `default ${DEFAULT_PDF_MAX_PAGES}, at most ${PDF_MAX_PAGES_LIMIT})`,
    );
    const parse = (maxPages: number) => scrapeOptionsSchema.safeParse({ parsers: [{ type: 'pdf', maxPages }] }).success;
    expect([parse(PDF_MAX_PAGES_LIMIT), parse(PDF_MAX_PAGES_LIMIT + 1)]).toEqual([true, false]);
  });

  it("sets the pdf parser's maxPages of a scrape and a batch (the default parsers, pdf, when none are given)", () => {
    expect(body('scrape', ['--pdf-max-pages', '1200'])).toEqual({ parsers: [{ type: 'pdf', maxPages: 1200 }] });
    expect(body('batch', ['--pdf-max-pages', '1200', '--parsers', 'pdf,image'])).toEqual({
      parsers: [{ type: 'pdf', maxPages: 1200 }, 'image'],
    });
  });

  it("goes into a crawl's scrapeOptions, keeping the pdf parser's other fields given in --body", () => {
    const base = { url: 'http://a.test', scrapeOptions: { parsers: [{ type: 'pdf', mode: 'fast' }] } };
    expect(body('crawl', ['--pdf-max-pages', '50'], base)).toEqual({
      url: 'http://a.test',
      scrapeOptions: { parsers: [{ type: 'pdf', mode: 'fast', maxPages: 50 }] },
    });
  });

  it('adds the pdf parser to a list without it, and passes a value that is not a number on for the API to refuse', () => {
    expect(body('scrape', ['--parsers', 'image', '--pdf-max-pages', '9'])).toEqual({
      parsers: ['image', { type: 'pdf', maxPages: 9 }],
    });
    expect(body('scrape', ['--pdf-max-pages', 'many'])).toEqual({ parsers: [{ type: 'pdf', maxPages: 'many' }] });
  });
});
