/**
 * The `jobPosting` format (crawlkit's own, L4 of docs/qa-job-board-day.md): the schema.org `JobPosting` a job page
 * declares in JSON-LD or microdata, read without a model, through the function API and `crawlkit serve` with the
 * official JS SDK; a page that declares none gets no field and a warning, as `product` does.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { startServer, type CrawlkitServer } from '@crawlkit/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ok } from './helpers/crawl-site-run.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { expectInOrder } from './helpers/in-order.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';

const KEY = 'fc-0123456789abcdef0123456789abcdef';

const POSTING = {
  '@context': 'https://schema.org/',
  '@type': 'JobPosting',
  title: 'Senior Backend Engineer',
  description: '<p>Build our <b>payments</b> API.</p><ul><li>Go or Rust</li><li>5 years &amp; more</li></ul>',
  datePosted: '2026-11-02',
  validThrough: '2026-12-31T23:59',
  employmentType: ['FULL_TIME', 'CONTRACTOR'],
  hiringOrganization: { '@type': 'Organization', name: 'Acme Pay', sameAs: 'https://acme.example' },
  jobLocation: {
    '@type': 'Place',
    address: {
      '@type': 'PostalAddress',
      streetAddress: 'Torstraße 1',
      addressLocality: 'Berlin',
      postalCode: '10119',
      addressCountry: { '@type': 'Country', name: 'DE' },
    },
  },
  jobLocationType: 'TELECOMMUTE',
  baseSalary: {
    '@type': 'MonetaryAmount',
    currency: 'EUR',
    value: { '@type': 'QuantitativeValue', minValue: 70000, maxValue: 90000, unitText: 'YEAR' },
  },
  identifier: { '@type': 'PropertyValue', name: 'Acme Pay', value: 'BE-41' },
  directApply: true,
  url: '/jobs/be-41',
};

const EXPECTED = {
  title: 'Senior Backend Engineer',
  description: 'Build our payments API.\nGo or Rust\n5 years & more',
  datePosted: '2026-11-02',
  validThrough: '2026-12-31T23:59',
  employmentType: ['FULL_TIME', 'CONTRACTOR'],
  hiringOrganization: { name: 'Acme Pay', url: 'https://acme.example/' },
  jobLocation: [{ streetAddress: 'Torstraße 1', addressLocality: 'Berlin', postalCode: '10119', addressCountry: 'DE' }],
  jobLocationType: 'TELECOMMUTE',
  remote: true,
  baseSalary: { currency: 'EUR', min: 70000, max: 90000, unit: 'YEAR' },
  identifier: 'BE-41',
  directApply: true,
};

const MICRODATA = `
  <div itemscope itemtype="https://schema.org/JobPosting">
    <h2 itemprop="title">Data Analyst</h2>
    <meta itemprop="datePosted" content="2026-10-20">
    <span itemprop="employmentType">PART_TIME</span>
    <div itemprop="hiringOrganization" itemscope itemtype="https://schema.org/Organization">
      <span itemprop="name">Globex</span>
    </div>
    <div itemprop="jobLocation" itemscope itemtype="https://schema.org/Place">
      <div itemprop="address" itemscope itemtype="https://schema.org/PostalAddress">
        <span itemprop="addressLocality">Lyon</span>, <span itemprop="addressCountry">FR</span>
      </div>
    </div>
    <div itemprop="description"><p>Report on sales.</p></div>
  </div>`;

const env = useFixtureEngine({
  server: () =>
    startRouteSite({
      '/jobs/be-41': (_req, res) =>
        sendPage(
          res,
          'Backend Engineer, Payments – Acme Pay',
          `<script type="application/ld+json">${JSON.stringify(POSTING)}</script><p>Apply below.</p>`,
        ),
      '/jobs/42': (_req, res) => sendPage(res, 'Data Analyst – Careers', MICRODATA),
      '/about': (_req, res) => sendPage(res, 'About us', '<p>We build payments.</p>'),
    }),
});

describe('the jobPosting format', () => {
  it("reads a JSON-LD JobPosting's fields through scrape(), the absent ones absent", async () => {
    const url = `${env.server.url}/jobs/be-41`;
    const page = ok(await env.ck.scrape({ url, formats: ['jobPosting'] }));
    expect(page.data.jobPosting).toEqual({ ...EXPECTED, url });
    expect(page.data.warning).toBeUndefined();
    expect(page.data.markdown).toBeUndefined();
  });

  it('reads a microdata JobPosting, with no field it does not declare', async () => {
    const page = ok(await env.ck.scrape({ url: `${env.server.url}/jobs/42`, formats: ['jobPosting', 'markdown'] }));
    expect(page.data.jobPosting).toEqual({
      title: 'Data Analyst',
      description: 'Report on sales.',
      datePosted: '2026-10-20',
      employmentType: ['PART_TIME'],
      hiringOrganization: { name: 'Globex' },
      jobLocation: [{ addressLocality: 'Lyon', addressCountry: 'FR' }],
    });
    // Before: 'Report on sales.' alone, the main content narrowed to the posting's itemprop="description".
    expectInOrder(page.data.markdown!, ['## Data Analyst', 'PART_TIME', 'Globex', 'Lyon, FR', 'Report on sales.']);
  });

  it('is left out of a page that declares none, with a warning', async () => {
    const page = ok(await env.ck.scrape({ url: `${env.server.url}/about`, formats: ['jobPosting'] }));
    expect(page.data.jobPosting).toBeUndefined();
    expect(page.data.warning).toBe(
      'No job posting was found on this page: it declares no JobPosting in JSON-LD or microdata.',
    );
  });

  describe('through crawlkit serve and the official SDK', () => {
    let server: CrawlkitServer;
    let fc: Firecrawl;
    beforeAll(async () => {
      server = await startServer({ port: 0, apiKeys: [KEY], crawlkit: env.ck });
      fc = new Firecrawl({ apiKey: KEY, apiUrl: server.url });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('is passed through by firecrawl-js and answered in the document', async () => {
      const url = `${env.server.url}/jobs/be-41`;
      const doc = await fc.scrape(url, { formats: ['jobPosting' as never], maxAge: 0 });
      expect((doc as { jobPosting?: unknown }).jobPosting).toEqual({ ...EXPECTED, url });
    });

    it('refuses a jobPosting object with an option it does not take, naming the format', async () => {
      const response = await fetch(`${server.url}/v2/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${env.server.url}/jobs/be-41`, formats: [{ type: 'jobPosting', schema: {} }] }),
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { success: boolean; error: string };
      expect(body.success).toBe(false);
      expect(body.error).toMatch(/formats/);
    });
  });
});
