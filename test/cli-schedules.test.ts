/**
 * `crawlkit crawl --every` and `crawlkit schedules` (issue 41), through the built CLI: a bad interval is refused with
 * what to fix; a scheduled crawl runs at once and prints its changes, stays in the store after Ctrl-C, and is listed,
 * run now and deleted by `crawlkit schedules`.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startChangingSite, type ChangingSite } from '../fixtures/changing-site.ts';
import { ensureBuilt, runCli, startCli, type CliOptions } from './cli-helpers.ts';

let site: ChangingSite;
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ck-cli-schedules-'));
  site = await startChangingSite({
    '/a.html': { title: 'A', text: 'First page.', modifiedAt: 0 },
    '/b.html': { title: 'B', text: 'Second page.', modifiedAt: 0 },
  });
}, 180_000);

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[], options: Pick<CliOptions, 'process'> = {}) =>
  runCli([...args, '--store', join(dir, 'store')], { ...options, cwd: dir });

describe('crawlkit crawl --every', { timeout: 120_000 }, () => {
  it('refuses a bad interval or cron expression, saying what to fix', async () => {
    const interval = await cli(['crawl', `${site.url}/`, '--every', '6x']);
    expect(interval.code).toBe(2);
    expect(interval.stderr).toContain('`every` must be a duration such as "30s", "15m", "6h", "1d" or "1h30m"');
    const cron = await cli(['crawl', `${site.url}/`, '--cron', '* * *']);
    expect(cron.code).toBe(2);
    expect(cron.stderr).toContain('`cron` must be a cron expression of five fields');
    const zone = await cli(['crawl', `${site.url}/`, '--every', '1h', '--timezone', 'Europe/Paris']);
    expect(zone).toMatchObject({
      code: 2,
      stderr:
        'crawlkit: --timezone applies to --cron: add --cron "<expression>", or drop --timezone ' +
        '(an --every interval is the same in every time zone) (CLI_USAGE)\n',
    });
    // alone, it names the flags too (not the API's `every` and `cron`), and no store is made
    const alone = await runCli(['crawl', `${site.url}/`, '--timezone', 'UTC', '--store', join(dir, 'zone-store')], {
      cwd: dir,
    });
    expect(alone).toMatchObject({
      code: 2,
      stderr: 'crawlkit: --timezone applies to --cron: add --cron "<expression>" (CLI_USAGE)\n',
    });
    expect(readdirSync(dir)).not.toContain('zone-store');
  });

  it('crawls at once, prints the changes, keeps the schedule after Ctrl-C; schedules lists and deletes it', async () => {
    const running = startCli(
      ['crawl', `${site.url}/`, '--every', '1h', '--max-age', '1', '--store', join(dir, 'store')],
      {
        cwd: dir,
      },
    );
    let stderr = '';
    await new Promise<void>((resolve) => {
      running.stderr!.on('data', (chunk: string) => {
        stderr += chunk;
        if (stderr.includes('changes first run of this lineage')) resolve();
      });
    });
    running.kill('SIGINT');
    const ended = await running.result;
    expect(ended.code).toBe(0);
    expect(ended.stderr).toContain('changes first run of this lineage: 3 new, 0 changed, 0 removed, 0 same');
    const id = /schedule ([0-9a-f-]{36}) stored: every 1h, crawl /.exec(ended.stderr)?.[1];
    expect(id).toBeDefined();

    // The built command once: `crawlkit schedules` stays covered end to end.
    const listed = await cli(['schedules', 'list'], { process: true });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${id}  every 1h, crawl ${site.url}/; next run `);

    // `schedules run <id>` runs that one now, out of its clock, prints its changes against the first run, and ends
    const now = await cli(['schedules', 'run', id!]);
    expect(now.code, now.stderr).toBe(0);
    expect(now.stderr).toMatch(new RegExp(`schedule ${id} ran: crawl [0-9a-f-]{36}`));
    expect(now.stderr).toMatch(/changes since crawl [0-9a-f-]{36}: 0 new, 0 changed, 0 removed, 3 same/);
    expect((await cli(['schedules', 'run', '01a22966-0000-7000-8000-000000000000'])).stderr).toContain(
      'Schedule not found (SCHEDULE_NOT_FOUND)',
    );
    expect((await cli(['schedules', 'delete', id!])).code).toBe(0);
    expect((await cli(['schedules', 'list'])).stdout).toBe('');
    const again = await cli(['schedules', 'delete', id!]);
    expect(again.stderr).toContain('Schedule not found (SCHEDULE_NOT_FOUND)');
  });

  it('run again, the same command goes on with the schedule it stored, and names those of the crawl on other clocks', async () => {
    const store = join(dir, 'again-store');
    /**
     * Runs `crawlkit crawl --every|--cron` until stderr has `until`, then stops it as Ctrl-C does: in the test's
     * process (the case above has the child and its SIGINT), where each child cost ~1.2 s of CPU to start.
     */
    const runUntil = async (clock: string[], until: string) => {
      const stopped = new AbortController();
      let stderr = '';
      const result = await runCli(['crawl', `${site.url}/`, ...clock, '--max-age', '1', '--store', store], {
        cwd: dir,
        signal: stopped.signal,
        onStderr: (text) => {
          stderr += text;
          if (stderr.includes(until)) stopped.abort();
        },
      });
      return result.stderr;
    };
    const first = await runUntil(['--every', '1h'], 'changes first run of this lineage');
    const id = /schedule ([0-9a-f-]{36}) stored: every 1h/.exec(first)?.[1];
    expect(id, first).toBeDefined();
    const again = await runUntil(['--every', '1h'], ' schedule(s) of ');
    expect(again).toContain(`schedule ${id} of this crawl stored before: every 1h, crawl ${site.url}/; next run `);
    expect(again).toContain('running 1 schedule(s)');
    const listed = await runCli(['schedules', 'list', '--store', store], { cwd: dir });
    expect(listed.stdout.trim().split('\n')).toHaveLength(1);
    const other = await runUntil(['--cron', '0 3 * * *'], ' schedule(s) of ');
    expect(other).toContain(`  schedule ${id} runs this crawl too (every 1h): crawlkit schedules delete ${id}`);
  });

  it('schedules list names each schedule, counts the targets past three, and tells how its last run went', async () => {
    const store = join(dir, 'list-store');
    const ck = new Crawlkit({ storeDir: store });
    const pages = ['/a.html', '/b.html', '/a.html?x', '/b.html?x', '/a.html?y'];
    const created = await ck.schedules.create({
      name: 'Docs pages',
      every: '1d',
      targets: pages.map((path) => ({ type: 'scrape', url: `${site.url}${path}` })),
    });
    if (!created.success) throw new Error(created.error);
    const unnamed = await ck.schedules.create({ cron: '0 3 * * *', targets: [{ type: 'scrape', url: site.url }] });
    if (!unnamed.success) throw new Error(unnamed.error);
    expect((await ck.schedules.run(created.data.id)).success).toBe(true);
    await ck.close();
    const { id } = created.data;
    const listed = await runCli(['schedules', 'list', '--store', store], { cwd: dir });
    const [first, second] = listed.stdout.split('\n');
    expect(first).toMatch(
      new RegExp(
        `^${id}  "Docs pages": every 1d, scrape ${site.url}/a\\.html, scrape ${site.url}/b\\.html, ` +
          `scrape ${site.url}/a\\.html\\?x and 2 more targets; next run \\S+; last run \\S+$`,
      ),
    );
    expect(second).toMatch(
      new RegExp(`^${unnamed.data.id}  cron "0 3 \\* \\* \\*", scrape ${site.url}; next run \\S+$`),
    );
    // --ndjson: one schedule a line
    const ndjson = await runCli(['schedules', 'list', '--ndjson', '--store', store], { cwd: dir });
    const lines = ndjson.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; name?: string });
    expect(lines.map((line) => line.id)).toEqual([id, unnamed.data.id]);
    expect(lines[0]!.name).toBe('Docs pages');
    // pause and resume: the line says so
    const paused = await runCli(['schedules', 'pause', unnamed.data.id, '--store', store], { cwd: dir });
    expect(paused.stdout).toBe(`${unnamed.data.id}  cron "0 3 * * *", scrape ${site.url}; paused\n`);
    expect((await runCli(['schedules', 'list', '--store', store], { cwd: dir })).stdout).toContain('; paused\n');
    const resumed = await runCli(['schedules', 'resume', unnamed.data.id, '--store', store], { cwd: dir });
    expect(resumed.stdout).toBe(second + '\n');
    const usage = await runCli(['schedules', 'pause', '--store', store], { cwd: dir });
    expect(usage).toMatchObject({
      code: 2,
      stderr: 'crawlkit: crawlkit schedules pause needs the id of a schedule (CLI_USAGE)\n',
    });
    // update: the schedule changed in place, its id and last run kept
    const updated = await runCli(
      [
        'schedules',
        'update',
        id,
        '--cron',
        '0 9 * * 1',
        '--timezone',
        'Europe/Paris',
        '--name',
        'Mondays',
        '--store',
        store,
      ],
      { cwd: dir },
    );
    expect(updated.stderr).toBe('');
    expect(updated.code).toBe(0);
    expect(updated.stdout).toMatch(
      new RegExp(
        `^${id}  "Mondays": cron "0 9 \\* \\* 1" in Europe/Paris, scrape .* and 2 more targets; next run \\S+; last run \\S+\n$`,
      ),
    );
    // --webhook sets the schedule's webhook, --no-webhook removes it
    const hooked = await runCli(
      ['schedules', 'update', id, '--webhook', 'https://hooks.example.com/changes', '--json', '--store', store],
      { cwd: dir },
    );
    expect(hooked.stderr).toBe('');
    expect(JSON.parse(hooked.stdout)).toMatchObject({
      success: true,
      data: { id, name: 'Mondays', webhook: { url: 'https://hooks.example.com/changes' } },
    });
    const unhooked = await runCli(['schedules', 'update', id, '--no-webhook', '--json', '--store', store], {
      cwd: dir,
    });
    expect(unhooked.code).toBe(0);
    expect((JSON.parse(unhooked.stdout) as { data: object }).data).not.toHaveProperty('webhook');
    // --crawl and --scrape replace the targets (--targets, the API's array, for targets with options)
    const retargeted = await runCli(
      ['schedules', 'update', id, '--crawl', `${site.url}/docs/`, '--scrape', `${site.url}/b.html`, '--json'].concat([
        '--store',
        store,
      ]),
      { cwd: dir },
    );
    expect(retargeted.stderr).toBe('');
    expect(JSON.parse(retargeted.stdout)).toMatchObject({
      data: {
        id,
        targets: [
          { type: 'crawl', url: `${site.url}/docs/` },
          { type: 'scrape', url: `${site.url}/b.html` },
        ],
      },
    });
    const withOptions = await runCli(
      ['schedules', 'update', id, '--targets', JSON.stringify([{ type: 'crawl', url: site.url, limit: 3 }])].concat([
        '--json',
        '--store',
        store,
      ]),
      { cwd: dir },
    );
    expect(JSON.parse(withOptions.stdout)).toMatchObject({
      data: { targets: [{ type: 'crawl', url: site.url, limit: 3 }] },
    });
    const badUrl = await runCli(['schedules', 'update', id, '--crawl', 'not a url', '--store', store], { cwd: dir });
    expect(badUrl).toMatchObject({ code: 2, stderr: 'crawlkit: Invalid URL (BAD_REQUEST)\n' });
    const badJson = await runCli(['schedules', 'update', id, '--targets', '{"type":', '--store', store], { cwd: dir });
    expect(badJson).toMatchObject({ code: 2, stderr: expect.stringMatching(/^crawlkit: --targets is not valid JSON/) });
    const both = await runCli(['schedules', 'update', id, '--targets', '[]', '--crawl', site.url, '--store', store], {
      cwd: dir,
    });
    expect(both).toMatchObject({ code: 2, stderr: expect.stringContaining('--targets replaces every target') });
    const refused = await runCli(['schedules', 'update', id, '--every', '1 day', '--store', store], { cwd: dir });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('`every` must be a duration');
    const nothing = await runCli(['schedules', 'update', id, '--store', store], { cwd: dir });
    expect(nothing).toMatchObject({
      code: 2,
      stderr:
        'crawlkit: crawlkit schedules update needs what to change: --every, --cron, --timezone, --name, ' +
        '--webhook, --no-webhook, or the targets (--crawl <url>, --scrape <url>, --targets <json>) (CLI_USAGE)\n',
    });
    const misplacedHook = await runCli(['schedules', 'resume', id, '--no-webhook', '--store', store], { cwd: dir });
    expect(misplacedHook).toMatchObject({
      code: 2,
      stderr: 'crawlkit: --no-webhook goes with `crawlkit schedules update <id>`, not resume (CLI_USAGE)\n',
    });
    const misplaced = await runCli(['schedules', 'pause', id, '--every', '1h', '--store', store], { cwd: dir });
    expect(misplaced).toMatchObject({
      code: 2,
      stderr: 'crawlkit: --every goes with `crawlkit schedules update <id>`, not pause (CLI_USAGE)\n',
    });
  });

  it('a firing that skips a target whose crawl still runs starts no crawl, and says so', async () => {
    // A page that answers once released: the schedule's first crawl runs until then.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held = createServer((_req, res) => {
      void released.then(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Held page.</p>'));
    });
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(held.address() as AddressInfo).port}/held`;
    const store = join(dir, 'skip-store');
    const ck = new Crawlkit({ storeDir: store });
    try {
      const created = await ck.schedules.create({ every: '1d', targets: [{ type: 'scrape', url }] });
      if (!created.success) throw new Error(created.error);
      const { id } = created.data;
      const first = await ck.schedules.run(id);
      if (!first.success) throw new Error(first.error);
      const running = first.data.jobIds[0]!;
      const again = await runCli(['schedules', 'run', id, '--store', store], { cwd: dir });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain(`schedule ${id} ran: crawl none\n`);
      expect(again.stderr).toContain(`skipped, its previous crawl ${running} is still running`);
      const listed = await runCli(['schedules', 'list', '--store', store], { cwd: dir });
      expect(listed.stdout).toMatch(/; last run \S+ \(1 target skipped, still running\)\n$/);
    } finally {
      release();
      await ck.close();
      held.close();
    }
  });

  it('lists, deletes or runs nothing where there is no store, without making one', async () => {
    const cwd = mkdtempSync(join(dir, 'no-store-'));
    const where = 'there is no store at ./.crawlkit (a schedule is kept in the store of the command that made it';
    const listed = await runCli(['schedules', 'list'], { cwd });
    expect(listed).toMatchObject({ code: 0, stdout: '' });
    expect(listed.stderr).toContain(`no schedules: ${where}`);
    expect(JSON.parse((await runCli(['schedules', 'list', '--json'], { cwd })).stdout)).toEqual({
      success: true,
      data: [],
    });
    for (const action of ['delete', 'run']) {
      const refused = await runCli(['schedules', action, '01a22966-0000-7000-8000-000000000000'], { cwd });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`Schedule not found: ${where}`);
    }
    expect(readdirSync(cwd)).toEqual([]);
  });
});
