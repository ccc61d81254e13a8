import { type ErrorResponse } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { data } from './helpers/scrape.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';

const env = useFixtureEngine();

describe('markdownOptions.rawHtml through scrape()', () => {
  it('writes what markdown cannot express as sanitised HTML only when asked', async () => {
    const url = `${env.server.url}/articles/raw-html.html`;
    const plain = data(await env.ck.scrape({ url }));
    expect(plain.markdown).toContain('hardened iron, and the old price is ~~$89~~ gone.');
    expect(plain.markdown).toContain('| Iron sizes | |');
    expect(plain.markdown).not.toMatch(/<u>|<div|<table/);
    const same = data(await env.ck.scrape({ url, markdownOptions: { rawHtml: false } }));
    expect(same.markdown).toBe(plain.markdown);

    const raw = data(await env.ck.scrape({ url, markdownOptions: { rawHtml: true } }));
    expect(raw.markdown).toContain('# Release notes 4.2');
    expect(raw.markdown).toContain('<u>hardened</u> iron, and the old price is <del>$89</del> gone.');
    expect(raw.markdown).toContain('<div class="note">Keep the iron <a>oiled</a> between uses.</div>');
    expect(raw.markdown).toContain('<th colspan="2">Iron sizes</th>');
    expect(raw.markdown).not.toMatch(/onclick|javascript:|<script|analytics/);
    // the same page from the cache, extracted again for the other mode
    expect(raw.metadata.cacheState).toBe('hit');
  });

  it('answers a bad value or an unknown key with the v2 error shape', async () => {
    const url = `${env.server.url}/articles/raw-html.html`;
    const bad = (await env.ck.scrape({
      url,
      markdownOptions: { rawHtml: 'yes' },
    } as never)) as ErrorResponse;
    expect(bad).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(bad.error).toContain('markdownOptions.rawHtml');
    expect(bad.details).toEqual([expect.objectContaining({ path: ['markdownOptions', 'rawHtml'] })]);
    const unknown = (await env.ck.scrape({ url, markdownOptions: { html: true } } as never)) as ErrorResponse;
    expect(unknown).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(unknown.error).toContain('html');
  });
});
