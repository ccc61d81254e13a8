/**
 * A monitor's `search` targets: each check runs the queries (through a SearXNG-shaped provider served on 127.0.0.1
 * whose answers change between checks, or through the local index when no provider is configured), compares the
 * results with the previous check's (`new`, `same`, `removed`), scrapes their pages (`changed` with the diff), sends
 * the page events and `monitor.check.completed` to the webhook, and judges new and changed results against a goal.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { Crawlkit, type MonitorCheckDetailView } from 'crawlkit';
import { afterEach, describe, expect, it } from 'vitest';

import { startChangingSite, type ChangingSite } from '../fixtures/changing-site.ts';
import { startLlmServer } from '../fixtures/llm-server.ts';
import { startReceiver, until } from './helpers-batch.ts';
import { closedCheck, ok } from './monitors-helpers.ts';

const day = Date.UTC(2026, 0, 1);
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A SearXNG JSON API answering `results` (URLs), or an HTTP status when `status` is set. */
async function startSearxng(): Promise<{
  url: string;
  results: string[];
  status?: number;
  asked: URLSearchParams[];
}> {
  const state: { url: string; results: string[]; status?: number; asked: URLSearchParams[] } = {
    url: '',
    results: [],
    asked: [],
  };
  const server: Server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    state.asked.push(query);
    if (state.status !== undefined) {
      res.writeHead(state.status).end('down');
      return;
    }
    const results = state.results.map((url, i) => ({ url, title: `Result ${i}`, content: 'about planes' }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

async function planeSite(): Promise<ChangingSite> {
  const site = await startChangingSite({
    '/a.html': { title: 'A', text: 'The No. 4 hand plane costs $129.', modifiedAt: day },
    '/b.html': { title: 'B', text: 'A block plane review.', modifiedAt: day },
    '/c.html': { title: 'C', text: 'A plane iron sharpening guide.', modifiedAt: day },
  });
  closers.push(() => site.close());
  return site;
}

/** An engine whose web search is `searx`, closed after the test. */
function engineSearching(searx: { url: string }): Crawlkit {
  const ck = new Crawlkit({
    store: 'memory',
    engine: 'http',
    search: { provider: { kind: 'searxng', url: searx.url } },
  });
  closers.push(() => ck.close());
  return ck;
}

const statuses = (detail: MonitorCheckDetailView) =>
  Object.fromEntries(detail.pages.map((p) => [new URL(p.url).pathname, p.status]));

describe('monitor search targets', () => {
  it("count a tenant's monitor's searches as the tenant's, as the scrapes of its results", async () => {
    const site = await planeSite();
    const searx = await startSearxng();
    const ck = engineSearching(searx);
    searx.results = [`${site.url}/a.html`, `${site.url}/b.html`];
    const team = { tenant: 'team-b' };
    const target = { id: 'news', type: 'search' as const, queries: ['hand plane'], maxResults: 5 };
    const id = ok(await ck.monitors.create({ name: 'planes', schedule: { text: 'hourly' }, targets: [target] }, team))
      .data.id;
    const check = await closedCheck(ck, id, ok(await ck.monitors.run(id, team)).data.id);
    expect(check.status).toBe('completed');
    // 2 credits for the search's results, 1 for each page (before: the search's were nobody's).
    expect(ck.getCreditUsage(team).data).toMatchObject({ creditsUsed: 4 });
    expect(ck.getCreditUsage({ tenant: 'team-a' }).data).toMatchObject({ creditsUsed: 0 });
    expect(ck.getCreditUsage().data).toMatchObject({ creditsUsed: 4 });

    // Created under a credit limit, its searches run under it (before: without one, whatever the limit).
    const spent = { tenant: 'team-c', creditLimit: 0 };
    const capped = ok(
      await ck.monitors.create({ name: 'capped', schedule: { text: 'hourly' }, targets: [target] }, spent),
    );
    const refused = await closedCheck(ck, capped.data.id, ok(await ck.monitors.run(capped.data.id, spent)).data.id);
    expect(refused.status).toBe('failed');
    expect(ck.getCreditUsage({ tenant: 'team-c' }).data).toMatchObject({ creditsUsed: 0 });
  });

  it('compares each check with the previous one through a web provider, scrapes the results, sends the events', async () => {
    const site = await planeSite();
    const searx = await startSearxng();
    const receiver = await startReceiver();
    closers.push(() => receiver.close());
    const ck = engineSearching(searx);
    searx.results = [`${site.url}/a.html`, `${site.url}/b.html`];

    const created = ok(
      await ck.monitors.create({
        name: 'planes',
        schedule: { text: 'hourly' },
        targets: [{ id: 'news', type: 'search', queries: ['hand plane'], maxResults: 5, searchWindow: '24h' }],
        webhook: { url: `${receiver.url}/hook`, events: ['monitor.page', 'monitor.check.completed'] },
      }),
    );
    expect(created.warning).not.toContain('search provider');
    expect(created.data.targets).toEqual([
      { id: 'news', type: 'search', queries: ['hand plane'], maxResults: 5, searchWindow: '24h' },
    ]);
    const id = created.data.id;

    const run1 = ok(await ck.monitors.run(id)).data;
    expect(run1.targetResults).toEqual([
      { targetId: 'news', type: 'search', searchCompleted: true, resultCount: 2, batchId: expect.any(String) },
    ]);
    expect(Object.fromEntries(searx.asked[0]!)).toMatchObject({ q: 'hand plane', time_range: 'day' });
    // Closed by the engine once the batch of its results has ended, with nobody reading it: its completion is sent.
    const completions = () => receiver.events.filter((e) => (e.payload.type as string) === 'monitor.check.completed');
    await until(() => completions().length === 1, 30_000);
    const first = await closedCheck(ck, id, run1.id);
    expect(first.status).toBe('completed');
    expect(statuses(first)).toEqual({ '/a.html': 'new', '/b.html': 'new' });
    expect(first.pages[0]).toMatchObject({ targetId: 'news', statusCode: 200, currentScrapeId: expect.any(String) });

    // The search answers differently, and a page still found has changed.
    searx.results = [`${site.url}/b.html`, `${site.url}/c.html`];
    site.set('/b.html', { title: 'B', text: 'A block plane review, updated.' });
    const second = await closedCheck(ck, id, ok(await ck.monitors.run(id)).data.id);
    expect(second.status).toBe('completed');
    expect(statuses(second)).toEqual({ '/b.html': 'changed', '/c.html': 'new', '/a.html': 'removed' });
    expect(second.summary).toEqual({ totalPages: 3, same: 0, changed: 1, new: 1, removed: 1, error: 0 });
    expect(second.pages.find((p) => p.status === 'changed')!.diff?.text).toContain('+A block plane review, updated.');

    // Both checks' page events and their completion, each once.
    await until(() => completions().length === 2, 30_000);
    await until(() => receiver.events.length === 7, 30_000);
    const changes = receiver.events
      .filter((e) => (e.payload.type as string) === 'schedule.change')
      .map((e) => (e.payload.data as unknown as { url: string; change: string }[])[0]!)
      .map(({ url, change }) => `${new URL(url).pathname} ${change}`)
      .sort();
    expect(changes).toEqual(['/a.html new', '/a.html removed', '/b.html changed', '/b.html new', '/c.html new']);

    // The provider down: the check failed, and the next one still compares with the last results found.
    searx.status = 500;
    const failed = await closedCheck(ck, id, ok(await ck.monitors.run(id)).data.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain('search "hand plane"');
    expect(failed.targetResults).toEqual([
      { targetId: 'news', type: 'search', searchCompleted: false, resultCount: 0 },
    ]);
    delete searx.status;
    const after = await closedCheck(ck, id, ok(await ck.monitors.run(id)).data.id);
    expect(statuses(after)).toEqual({ '/b.html': 'same', '/c.html': 'same' });
  }, 60_000);

  it('searches the stored pages without a provider (told at create time), judging new results against the goal', async () => {
    const site = await planeSite();
    const llm = await startLlmServer();
    closers.push(() => llm.close());
    const model = createOpenAICompatible({ name: 'local', baseURL: llm.url, supportsStructuredOutputs: true });
    const ck = new Crawlkit({
      store: 'memory',
      engine: 'http',
      llm: { model: model.chatModel('judge-model'), maxRetries: 0 },
    });
    closers.push(() => ck.close());
    ok(await ck.scrape({ url: `${site.url}/a.html` }));

    // firecrawl-mcp's short form: `queries` and a goal.
    const created = ok(
      await ck.monitors.create({
        name: 'Monitor hand plane',
        schedule: { text: 'every 30 minutes', timezone: 'UTC' },
        goal: 'new hand plane reviews',
        targets: [{ type: 'search', queries: ['hand plane'] }],
      }),
    );
    expect(created.warning).toContain('No web search provider is configured');
    expect(created.warning).toContain('local index');
    const id = created.data.id;

    const first = await closedCheck(ck, id, ok(await ck.monitors.run(id)).data.id);
    expect(statuses(first)).toEqual({ '/a.html': 'new' });
    expect(first.pages[0]!.judgment).toMatchObject({ meaningful: expect.any(Boolean) });
    expect(JSON.stringify(llm.requests.at(-1)!.body.messages)).toContain('new hand plane reviews');

    site.set('/b.html', { title: 'B', text: 'A hand plane review.' });
    ok(await ck.scrape({ url: `${site.url}/b.html` }));
    llm.reset();
    const second = await closedCheck(ck, id, ok(await ck.monitors.run(id)).data.id);
    expect(statuses(second)).toEqual({ '/a.html': 'same', '/b.html': 'new' });
    expect(second.pages.find((p) => p.status === 'same')).not.toHaveProperty('judgment');
    expect(llm.requests).toHaveLength(1);
  }, 60_000);

  it('refuses a search target the search would refuse, at its own path', async () => {
    const ck = new Crawlkit({ store: 'memory' });
    closers.push(() => ck.close());
    const base = { name: 'x', schedule: { cron: '*/30 * * * *' } };
    const refused = async (target: object, ...words: string[]) => {
      const answer = await ck.monitors.create({ ...base, targets: [target] } as never);
      expect(answer).toMatchObject({ success: false, code: 'BAD_REQUEST' });
      for (const word of words) expect((answer as { error: string }).error).toContain(word);
    };
    await refused({ type: 'search', queries: [] }, 'queries');
    await refused(
      { type: 'search', queries: ['a', 'b'], includeDomains: ['a.example'], excludeDomains: ['b.example'] },
      'includeDomains and excludeDomains cannot both be specified',
    );
    await refused({ type: 'search', queries: ['!!!'] }, 'targets[0]', 'queries');
    await refused({ type: 'search', queries: ['x'], scrapeOptions: { formats: ['nope'] } }, 'scrapeOptions');
    await refused({ type: 'search', queries: ['x'], searchWindow: '2d' }, 'searchWindow');
    await refused({ type: 'news', queries: ['x'] }, '"scrape", "crawl" or "search"');
  });
});
