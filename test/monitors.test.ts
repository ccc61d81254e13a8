/**
 * Monitors (`ck.monitors.*`, the engine of `/v2/monitor`): a monitor's checks see a local site change between two
 * runs (each page same, new, changed or removed, a changed one with its diff); a monitor made by one engine fires in
 * another on the same SQLite store; what cannot be local, and bad input, is refused with what to write instead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { Crawlkit, type MonitorCheckDetailView } from 'crawlkit';
import { afterEach, describe, expect, it } from 'vitest';

import { startChangingSite, type ChangingSite } from '../fixtures/changing-site.ts';
import { until } from './helpers-batch.ts';
import { closedCheck, ok } from './monitors-helpers.ts';

const day = Date.UTC(2026, 0, 1);
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function freshSite(): Promise<ChangingSite> {
  const site = await startChangingSite({
    '/stable.html': { title: 'Stable', text: 'This page never changes.', modifiedAt: day },
    '/edited.html': { title: 'Edited', text: 'First version of the text.', modifiedAt: day },
    '/deleted.html': { title: 'Deleted', text: 'Soon gone.', modifiedAt: day },
  });
  closers.push(() => site.close());
  return site;
}

function engine(options: ConstructorParameters<typeof Crawlkit>[0] = {}): Crawlkit {
  const ck = new Crawlkit({ store: 'memory', engine: 'http', ...options });
  closers.push(() => ck.close());
  return ck;
}

const byPath = (detail: MonitorCheckDetailView) =>
  Object.fromEntries(detail.pages.map((p) => [`${p.targetId} ${new URL(p.url).pathname}`, p.status]));

describe('monitors', () => {
  it('checks a site twice: pages new, then same, changed, new and removed, a changed page with its diff', async () => {
    const site = await freshSite();
    const ck = engine();
    const created = ok(
      await ck.monitors.create({
        name: 'docs',
        schedule: { text: 'every 30 minutes' },
        targets: [
          { id: 'site', type: 'crawl', url: `${site.url}/`, crawlOptions: { sitemap: 'skip' } },
          { id: 'pages', type: 'scrape', urls: [`${site.url}/stable.html`, `${site.url}/edited.html`] },
        ],
      }),
    );
    const id = created.data.id;
    expect(created.warning).toContain('does not run schedules');
    expect(created.data).toMatchObject({
      name: 'docs',
      status: 'active',
      schedule: { cron: '*/30 * * * *', text: 'every 30 minutes', timezone: 'UTC' },
      targets: [
        { id: 'site', type: 'crawl', url: `${site.url}/`, crawlOptions: { sitemap: 'skip' } },
        { id: 'pages', type: 'scrape', urls: [`${site.url}/stable.html`, `${site.url}/edited.html`] },
      ],
      lastCheckSummary: null,
    });
    // The monitor's own diff format is not shown as the client's.
    expect(created.data.targets[0]).not.toHaveProperty('scrapeOptions');

    const run1 = ok(await ck.monitors.run(id)).data;
    expect(run1).toMatchObject({ monitorId: id, trigger: 'manual', billingStatus: 'not_applicable' });
    expect(run1.targetResults).toEqual([
      { targetId: 'site', type: 'crawl', crawlId: expect.any(String) },
      { targetId: 'pages', type: 'scrape', expectedJobs: [expect.any(String), expect.any(String)] },
    ]);
    const first = await closedCheck(ck, id, run1.id);
    expect(first.status).toBe('completed');
    expect(first.summary).toEqual({ totalPages: 6, same: 0, changed: 0, new: 6, removed: 0, error: 0 });

    site.set('/edited.html', { title: 'Edited', text: 'Second version of the text.' });
    site.pages.delete('/deleted.html');
    site.set('/added.html', { title: 'Added', text: 'A new page.' });
    const run2 = ok(await ck.monitors.run(id)).data;
    const second = await closedCheck(ck, id, run2.id);
    expect(second.status).toBe('completed');
    expect(byPath(second)).toEqual({
      'site /': 'changed',
      'site /stable.html': 'same',
      'site /edited.html': 'changed',
      'site /added.html': 'new',
      'site /deleted.html': 'removed',
      'pages /stable.html': 'same',
      'pages /edited.html': 'changed',
    });
    const edited = second.pages.find((p) => p.targetId === 'pages' && p.url.endsWith('/edited.html'))!;
    expect(edited.diff?.text).toContain('-First version of the text.');
    expect(edited.diff?.text).toContain('+Second version of the text.');
    expect(second.pages.find((p) => p.url.endsWith('/stable.html'))!.diff).toBeNull();

    // Paging, with a status kept, and `next` where the rest is.
    const changed = ok(await ck.monitors.check(id, run2.id, { status: 'changed', limit: 2 }));
    expect(changed.data.pages.map((p) => p.status)).toEqual(['changed', 'changed']);
    expect(changed.next).toBe(`crawlkit://v2/monitor/${id}/checks/${run2.id}?skip=2&limit=2&status=changed`);
    const rest = ok(await ck.monitors.check(id, run2.id, { status: 'changed', skip: 2, limit: 2 }));
    expect(rest.data.pages).toHaveLength(1);
    expect(rest.next).toBeNull();

    const checks = ok(await ck.monitors.checks(id)).data;
    expect(checks.map((c) => c.id)).toEqual([run2.id, run1.id]);
    expect(ok(await ck.monitors.checks(id, { status: 'completed', offset: 1 })).data.map((c) => c.id)).toEqual([
      run1.id,
    ]);
    expect(ok(await ck.monitors.checks(id, { status: 'failed' })).data).toEqual([]);
    expect(await ck.monitors.checks(id, { status: 'done' })).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    const shown = ok(await ck.monitors.get(id)).data;
    expect(shown.lastCheckSummary).toEqual(second.summary);
    expect(shown.currentCheckId).toBeNull();
    expect(shown.lastRunAt).toBe(run2.startedAt);
  }, 60_000);

  it('pauses, resumes, reschedules in a time zone and deletes', async () => {
    const site = await freshSite();
    const ck = engine();
    const { id } = ok(
      await ck.monitors.create({
        name: 'one page',
        schedule: { cron: '0 9 * * *', timezone: 'Europe/Paris' },
        targets: [{ type: 'scrape', urls: [`${site.url}/stable.html`] }],
      }),
    ).data;
    const created = ok(await ck.monitors.get(id)).data;
    // 09:00 in Paris is 07:00 or 08:00 UTC.
    expect(new Date(created.nextRunAt!).getUTCHours()).toBeOneOf([7, 8]);
    expect(created.targets).toEqual([
      { id: expect.stringMatching(/^tgt_/), type: 'scrape', urls: [`${site.url}/stable.html`] },
    ]);

    // The monitor keeps its own status: its schedule is not paused as a plain one
    expect(await ck.schedules.pause(id)).toMatchObject({
      success: false,
      code: 'BAD_REQUEST',
      error: expect.stringContaining(`PATCH /v2/monitor/${id} with {"status":"paused"}`),
    });
    const paused = ok(await ck.monitors.update(id, { status: 'paused' })).data;
    expect(paused).toMatchObject({ status: 'paused', nextRunAt: null });
    // Its schedule tells the monitor's state, in a list (`crawlkit schedules list`) as in a get
    const asSchedule = { id, status: 'paused', nextRunAt: null };
    expect(ok(await ck.schedules.list()).data).toMatchObject([asSchedule]);
    expect(ok(await ck.schedules.get(id)).data).toMatchObject(asSchedule);
    expect(await ck.schedules.resume(id)).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    const resumed = ok(await ck.monitors.update(id, { status: 'active', schedule: { text: 'hourly' } })).data;
    expect(resumed).toMatchObject({ status: 'active', schedule: { cron: '0 * * * *', timezone: 'UTC' } });
    expect(ok(await ck.schedules.get(id)).data).toMatchObject({ status: 'active', nextRunAt: resumed.nextRunAt });
    expect(new Date(resumed.nextRunAt!).getUTCMinutes()).toBe(0);
    const renamed = ok(await ck.monitors.update(id, { name: 'renamed', webhook: { url: 'https://hooks.example/x' } }));
    expect(renamed.data).toMatchObject({
      name: 'renamed',
      webhook: { url: 'https://hooks.example/x', events: ['new', 'changed', 'removed'] },
    });
    expect(ok(await ck.monitors.list()).data.map((m) => m.name)).toEqual(['renamed']);
    expect(ok(await ck.monitors.list({ offset: 1 })).data).toEqual([]);

    expect(await ck.monitors.delete(id)).toEqual({ success: true });
    expect(await ck.monitors.get(id)).toMatchObject({ success: false, code: 'MONITOR_NOT_FOUND' });
    expect(await ck.monitors.run(id)).toMatchObject({ success: false, code: 'MONITOR_NOT_FOUND' });
    // A plain schedule is not a monitor.
    const schedule = ok(await ck.schedules.create({ every: '1h', targets: [{ type: 'scrape', url: `${site.url}/` }] }));
    expect(await ck.monitors.get(schedule.data.id)).toMatchObject({ success: false, code: 'MONITOR_NOT_FOUND' });
    expect(ok(await ck.monitors.list()).data).toEqual([]);
  });

  it('refuses what it cannot do locally, and bad input, saying what to write', async () => {
    const ck = engine();
    const base = {
      name: 'x',
      schedule: { cron: '*/30 * * * *' },
      targets: [{ type: 'scrape', urls: ['https://a.example/'] }],
    };
    const refused = async (body: object, ...words: string[]) => {
      const answer = await ck.monitors.create(body as never);
      expect(answer).toMatchObject({ success: false, code: 'BAD_REQUEST' });
      for (const word of words) expect((answer as { error: string }).error).toContain(word);
    };
    await refused(
      { ...base, notification: { email: { enabled: true, recipients: ['a@b.c'] } } },
      'sends no email',
      'webhook',
    );
    await refused(
      { ...base, schedule: { text: 'now and then' } },
      '"now and then"',
      'every N minutes',
      'daily at 9:00',
    );
    await refused({ ...base, schedule: { cron: '61 * * * *' } }, 'cron');
    await refused({ ...base, schedule: { cron: '0 9 * * *', timezone: 'Mars/Olympus' } }, '"Mars/Olympus"', 'IANA');
    await refused({ ...base, schedule: {} }, '`schedule.cron`', '`schedule.text`');
    await refused(
      { ...base, webhook: { url: 'https://hooks.example/', events: ['monitor.check.failed'] } },
      '"monitor.check.failed"',
      '"monitor.page"',
      '"monitor.check.completed"',
    );
    await refused(
      { ...base, targets: [{ type: 'crawl', url: 'https://a.example/', crawlOptions: { tag: 'mine' } }] },
      '`targets[0].tag` cannot be set',
    );
    await refused({ ...base, targets: [{ type: 'scrape', urls: [] }] }, 'targets[0].urls');
    await refused(
      {
        ...base,
        targets: [
          { id: 'pricing', type: 'scrape', urls: ['https://a.example/'] },
          { id: 'pricing', type: 'crawl', url: 'https://a.example/' },
        ],
      },
      '`targets[1].id`: "pricing" is the id of targets[0] too',
    );
    const urls = Array.from({ length: 60 }, (_, i) => `https://a.example/${i}`);
    await refused(
      {
        ...base,
        targets: [
          { type: 'scrape', urls },
          { type: 'scrape', urls },
        ],
      },
      'at most 100 scrapes and crawls',
      'make 120',
    );
    // Email turned off, and the SDK's `origin`, are taken.
    const taken = await ck.monitors.create({
      ...base,
      notification: { email: { enabled: false } },
      origin: 'js-sdk@4.42.0',
    });
    expect(taken).toMatchObject({ success: true, data: { notification: null } });
  });

  it("a check's fetches are conditional: an unchanged page answers 304 and is same, an edited one is fetched", async () => {
    const pages = await freshSite();
    const docs = await freshSite();
    const ck = engine();
    const { id } = ok(
      await ck.monitors.create({
        name: 'conditional',
        schedule: { cron: '0 0 1 1 *' },
        targets: [
          { type: 'scrape', urls: [`${pages.url}/stable.html`, `${pages.url}/edited.html`] },
          { type: 'crawl', url: `${docs.url}/`, crawlOptions: { sitemap: 'skip' } },
        ],
      }),
    ).data;
    await closedCheck(ck, id, ok(await ck.monitors.run(id)).data.id);
    pages.resetCounts();
    docs.resetCounts();
    pages.set('/edited.html', { title: 'Edited', text: 'Second version of the text.' });
    const second = await closedCheck(ck, id, ok(await ck.monitors.run(id)).data.id);
    expect(second.summary).toMatchObject({ totalPages: 6, same: 5, changed: 1 });
    expect(second.pages.find((p) => p.status === 'changed')!.diff?.text).toContain('+Second version of the text.');
    // Only the edited page was sent in full; the others confirmed their copies.
    expect(Object.fromEntries(pages.full)).toEqual({ '/edited.html': 1 });
    expect(Object.fromEntries(pages.notModified)).toEqual({ '/stable.html': 1 });
    expect(Object.fromEntries(docs.full)).toEqual({});
    expect(Object.fromEntries(docs.notModified)).toEqual({
      '/': 1,
      '/stable.html': 1,
      '/edited.html': 1,
      '/deleted.html': 1,
    });
  }, 60_000);

  it("a page in two targets with other options is diffed against its own target's last snapshot", async () => {
    const site = await freshSite();
    const ck = engine();
    const page = `${site.url}/edited.html`;
    const { id } = ok(
      await ck.monitors.create({
        name: 'overlap',
        schedule: { cron: '0 0 1 1 *' },
        targets: [
          { id: 'main', type: 'scrape', urls: [page] },
          { id: 'whole', type: 'scrape', urls: [page], scrapeOptions: { onlyMainContent: false } },
        ],
      }),
    ).data;
    await closedCheck(ck, id, ok(await ck.monitors.run(id)).data.id);
    site.set('/edited.html', { title: 'Edited', text: 'Second version of the text.' });
    const second = await closedCheck(ck, id, ok(await ck.monitors.run(id)).data.id);
    expect(byPath(second)).toEqual({ 'main /edited.html': 'changed', 'whole /edited.html': 'changed' });
    // Against a shared history, one target's diff was against the other's snapshot: the menu and footer came with it.
    for (const { diff } of second.pages) {
      const lines = (diff?.text ?? '').split('\n').filter((l) => /^[+-](?![+-])/.test(l));
      expect(lines).toEqual(['-First version of the text.', '+Second version of the text.']);
    }
  }, 60_000);

  it('deleting a monitor deletes its checks, their pages and its snapshots from the SQLite store; a target taken out, its own', async () => {
    const site = await freshSite();
    const dir = mkdtempSync(join(tmpdir(), 'ck-monitors-'));
    closers.push(() => Promise.resolve(rmSync(dir, { recursive: true, force: true })));
    const ck = new Crawlkit({ storeDir: dir, engine: 'http' });
    const kept = { id: 'kept', type: 'scrape' as const, urls: [`${site.url}/stable.html`, `${site.url}/edited.html`] };
    const { id } = ok(
      await ck.monitors.create({
        name: 'gone',
        schedule: { cron: '0 0 1 1 *' },
        targets: [kept, { id: 'dropped', type: 'crawl', url: `${site.url}/`, crawlOptions: { sitemap: 'skip' } }],
      }),
    ).data;
    for (let i = 0; i < 2; i++) await closedCheck(ck, id, ok(await ck.monitors.run(id)).data.id);
    const count = (tag: string) => {
      const db = new DatabaseSync(join(dir, 'crawlkit.db'), { readOnly: true });
      const row = db.prepare('SELECT count(*) AS n FROM history WHERE tag LIKE ?').get(tag) as { n: number };
      db.close();
      return row.n;
    };
    // The monitor, two checks, a chunk of pages each, two slots.
    expect(count('crawlkit:monitor%')).toBeGreaterThanOrEqual(7);
    // The pages' change-tracking snapshots, by target.
    const snapshots = count(`monitor:${id}:kept`);
    expect(snapshots).toBeGreaterThan(0);
    expect(count(`monitor:${id}:dropped`)).toBeGreaterThan(0);
    ok(await ck.monitors.update(id, { targets: [kept] }));
    expect(count(`monitor:${id}:dropped`)).toBe(0);
    expect(count(`monitor:${id}:kept`)).toBe(snapshots);
    expect(await ck.monitors.delete(id)).toEqual({ success: true });
    expect(count('crawlkit:monitor%')).toBe(0);
    expect(count(`monitor:${id}%`)).toBe(0);
    await ck.close();
  }, 60_000);

  it('fires in another engine on the same SQLite store: the check recorded and closed there', async () => {
    const site = await freshSite();
    const dir = mkdtempSync(join(tmpdir(), 'ck-monitors-'));
    closers.push(() => Promise.resolve(rmSync(dir, { recursive: true, force: true })));
    const maker = new Crawlkit({ storeDir: dir, engine: 'http' });
    // Six fields: every second, seconds first.
    const created = ok(
      await maker.monitors.create({
        name: 'restart',
        schedule: { cron: '* * * * * *' },
        targets: [{ type: 'scrape', urls: [`${site.url}/stable.html`] }],
      }),
    );
    await maker.close();

    const runner = engine({ storeDir: dir, store: undefined, runSchedules: true });
    const id = created.data.id;
    let checkId: string | undefined;
    await until(async () => {
      const checks = ok(await runner.monitors.checks(id)).data;
      checkId = checks.find((c) => c.status === 'completed')?.id;
      return checkId !== undefined;
    }, 30_000);
    ok(await runner.monitors.update(id, { status: 'paused' }));
    const detail = ok(await runner.monitors.check(id, checkId!)).data;
    expect(detail).toMatchObject({ trigger: 'scheduled', status: 'completed' });
    expect(detail.pages.map((p) => [p.url, p.status])).toContainEqual([`${site.url}/stable.html`, expect.any(String)]);
  }, 60_000);
});
