import { describe, expect, it } from 'vitest';

import { extractJobPosting } from './job-posting-reader.js';

const URL_ = 'https://jobs.example/postings/7';

const page = (head: string, body = '') =>
  `<!doctype html><html><head><title>Page title</title>${head}</head><body>${body}</body></html>`;
const ld = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;

describe('extractJobPosting', () => {
  it('finds a JobPosting inside @graph; a description escaped twice is text; a plain salary and place', () => {
    const posting = extractJobPosting(
      page(
        ld({
          '@context': 'https://schema.org',
          '@graph': [
            { '@type': 'WebPage', name: 'Careers' },
            {
              '@type': 'JobPosting',
              title: 'Welder',
              description: '&lt;p&gt;Weld &amp;amp; grind.&lt;/p&gt;&lt;p&gt;Night shifts.&lt;/p&gt;',
              hiringOrganization: 'Initech',
              jobLocation: { '@type': 'Place', address: 'Dock 4, Hamburg' },
              baseSalary: { '@type': 'MonetaryAmount', currency: 'eur', value: 21.5 },
              identifier: 'W-7',
              directApply: 'false',
              jobLocationType: 'https://schema.org/TELECOMMUTE',
            },
          ],
        }),
      ),
      URL_,
    );
    expect(posting).toEqual({
      title: 'Welder',
      description: 'Weld & grind.\nNight shifts.',
      hiringOrganization: { name: 'Initech' },
      jobLocation: [{ name: 'Dock 4, Hamburg' }],
      jobLocationType: 'https://schema.org/TELECOMMUTE',
      remote: true,
      baseSalary: { currency: 'EUR', value: 21.5 },
      identifier: 'W-7',
      directApply: false,
    });
  });

  it('takes what JSON-LD lacks from microdata, and no remote for an on-site posting', () => {
    const posting = extractJobPosting(
      page(
        ld({ '@type': 'JobPosting', title: 'Chef', jobLocationType: 'ONSITE' }),
        '<div itemscope itemtype="https://schema.org/JobPosting"><span itemprop="title">Cook</span>' +
          '<meta itemprop="validThrough" content="2027-01-31"></div>',
      ),
      URL_,
    );
    expect(posting).toEqual({ title: 'Chef', validThrough: '2027-01-31', jobLocationType: 'ONSITE' });
  });

  it('is undefined for a page that declares no JobPosting', () => {
    expect(extractJobPosting(page(ld({ '@type': 'Product', name: 'Plane' })), URL_)).toBeUndefined();
  });
});
