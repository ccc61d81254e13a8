/**
 * Job postings through `scrape()` with the main content only (docs/qa-job-board-day.md, L5 and L6): the things a
 * scraper of postings wants from them, which page furniture rules dropped.
 */
import type { ServerResponse } from 'node:http';

import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { startRouteSite } from './helpers/route-site.ts';
import { data } from './helpers/scrape.ts';

const html = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Senior Backend Engineer - Acme</title></head>` +
  `<body><header class="main-header"><a href="/"><img alt="Acme logo" src="/logo.png"></a></header>${body}` +
  `<div class="main-footer"><p><a href="https://www.example.com/">Acme Home Page</a></p>` +
  `<a class="image-link" href="https://www.lever.co/"><span>Jobs powered by </span></a></div></body></html>`;

const DESCRIPTION =
  '<div class="section page-centered"><p>Acme builds the payments platform that thousands of small shops run on. We ' +
  'are looking for a senior backend engineer to join the platform team in Berlin and scale our ledger services.</p>' +
  '</div><div class="section page-centered"><h3>What you will do</h3><ul><li>Design and run the services that move ' +
  'money between shops and banks.</li><li>Own the reliability of the ledger, from its schema to its on-call rota.' +
  '</li><li>Mentor engineers joining the team and review their designs.</li></ul></div>' +
  '<div class="section page-centered"><h3>Benefits</h3><ul><li>30 days of holiday</li><li>A yearly learning budget ' +
  'of €2,000</li><li>Public transport ticket</li></ul></div><div class="section page-centered"><p>Acme is an equal ' +
  'opportunity employer. We welcome applications from everyone, whatever their background.</p></div>';

/** Lever's markup: the posting's sections, then its "Apply" styled as a button, leading to `apply`. */
const lever = (apply: string, more = '') =>
  html(
    `<div class="content"><div class="section-wrapper page-full-width">${DESCRIPTION}${more}` +
      `<div class="section page-centered last-section-apply"><a class="postings-btn template-btn-submit" ` +
      `href="${apply}">Apply for this job</a></div></div></div>`,
  );

/**
 * A Workday-like posting as its script renders it: the title heading beside the description, both children of
 * `#root`; `declared` adds the schema.org `JobPosting` such boards write.
 */
const workday = (declared: boolean) =>
  html(
    (declared
      ? '<script type="application/ld+json">{"@context":"https://schema.org","@type":"JobPosting",' +
        '"title":"Staff Data Engineer","datePosted":"2026-11-30"}</script>'
      : '') +
      '<div id="root"><h2 data-automation-id="jobPostingHeader">Staff Data Engineer</h2>' +
      `<div data-automation-id="jobPostingDescription">${DESCRIPTION}</div></div>`,
  ).replace('<title>Senior Backend Engineer - Acme</title>', '<title>Staff Data Engineer | Acme Careers</title>');

let site: FixtureServer;
let ck: Crawlkit;
const send = (body: string) => (_req: unknown, res: ServerResponse) =>
  void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);

beforeAll(async () => {
  site = await startRouteSite({
    '/acme/4821': send(lever('/acme/4821/apply')),
    // the same posting with a link in its text: the button is one action among others
    '/acme/4822': send(lever('/acme/4822/apply', '<p>Read <a href="/acme/culture">how we work</a> first.</p>')),
    // a button leading elsewhere than below the page: a sign-up, a "get started" of a service page
    '/acme/4823': send(lever('/signup')),
    '/job/staff-data-engineer': send(workday(true)),
    '/job/staff-data-engineer-undeclared': send(workday(false)),
  });
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck?.close();
  await site?.close();
});

async function scrape(path: string) {
  return data(await ck.scrape({ url: `${site.url}${path}`, formats: ['markdown', 'links'] }));
}

describe('a job posting, main content only', () => {
  it("keeps an Apply styled as a button that is the content's only way on, below the posting's own address (L5)", async () => {
    const doc = await scrape('/acme/4821');
    // Before: dropped (`link-button`), so `links` was [] and a schema's applyUrl had nothing to read.
    expect(doc.markdown).toContain(`[Apply for this job](${site.url}/acme/4821/apply)`);
    expect(doc.links).toEqual([`${site.url}/acme/4821/apply`]);
    expect(doc.markdown).not.toContain('Jobs powered by');
  });

  it('still drops a button beside other links of the content, or one leading elsewhere', async () => {
    expect((await scrape('/acme/4822')).markdown).not.toContain('Apply for this job');
    expect((await scrape('/acme/4823')).markdown).not.toContain('Apply for this job');
  });

  it("keeps a declared posting's title heading that sits beside the description, named by the page title (L6)", async () => {
    // Before: `dropped outside-container h2 Staff Data Engineer`; the description alone.
    const doc = await scrape('/job/staff-data-engineer');
    expect(doc.markdown).toMatch(/^## Staff Data Engineer\n\nAcme builds the payments platform/);
    // A page that declares no posting keeps its title heading out, as a story's (decisions.md).
    expect((await scrape('/job/staff-data-engineer-undeclared')).markdown).not.toContain('Staff Data Engineer');
  });
});
