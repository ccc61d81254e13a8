/**
 * `firecrawl-cli` (npm, the version pinned in package.json) against `crawlkit serve`, unchanged: every command with
 * a local meaning, pointed at the server by `FIRECRAWL_API_URL` alone, results checked for sense. The CLI runs with
 * the network guard: it may dial only loopback (and `doctor`'s version check, which no setting turns off, is
 * refused and reported as such).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { until } from '../helpers-batch.ts';
import { startClientStack, type ClientStack } from './harness.ts';
import { runFirecrawl } from './run-client.ts';

let stack: ClientStack;

beforeAll(async () => {
  stack = await startClientStack();
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

const firecrawl = (args: string[], timeoutMs?: number) =>
  runFirecrawl(args, { cwd: stack.dir, env: stack.clientEnv(), ...(timeoutMs ? { timeoutMs } : {}) });

/** The JSON object a command printed (it may print a line such as `Scrape ID: …` before it). */
function jsonOut(stdout: string): Record<string, unknown> {
  const start = stdout.indexOf('{');
  if (start < 0) throw new Error(`no JSON in: ${stdout.slice(0, 300)}`);
  return JSON.parse(stdout.slice(start)) as Record<string, unknown>;
}

const ARTICLE = '/articles/first-post.html';

/** Output without its terminal colours (`--status` colours whatever the terminal). */
// eslint-disable-next-line no-control-regex
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

describe('firecrawl scrape', () => {
  it('prints the markdown of the page (integration "cli" accepted)', async () => {
    const result = await firecrawl(['scrape', stack.page(ARTICLE), '--only-main-content']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('# Sharpening a Hand Plane');
    expect(result.stdout).toContain('| Pine | 25° | 30° |');
    expect(result.stdout).not.toContain('cookie policy');
  });

  it('returns every non-browser format from the page, as JSON', async () => {
    const result = await firecrawl([
      'scrape',
      stack.page(ARTICLE),
      '--format',
      'markdown,html,rawHtml,links,images,summary',
      '--only-main-content',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const doc = jsonOut(result.stdout);
    expect(doc.markdown).toEqual(expect.stringContaining('Hone the primary bevel'));
    expect(doc.html).toEqual(expect.stringContaining('<h1>Sharpening a Hand Plane</h1>'));
    expect(doc.rawHtml).toEqual(expect.stringContaining('<title>Sharpening a Hand Plane | Acme Field Notes</title>'));
    expect(doc.links).toContain(stack.page('/docs/getting-started.html'));
    expect(doc.images).toContainEqual(expect.stringContaining('/img/plane'));
    // The model configured by OPENAI_BASE_URL/MODEL_NAME wrote it (the local model quotes the page).
    expect(doc.summary).toMatch(/^Summary: .*(iron|plane)/);
  });

  it('takes a screenshot and reads the branding in the browser', async () => {
    const shot = await firecrawl(['scrape', stack.page(ARTICLE), '--screenshot', '--format', 'markdown,screenshot']);
    expect(shot.code, shot.stderr).toBe(0);
    expect(jsonOut(shot.stdout).screenshot).toMatch(/^data:image\/(png|jpeg);base64,/);
    const brand = await firecrawl(['scrape', stack.page('/branding/light.html'), '--format', 'branding'], 120_000);
    expect(brand.code, brand.stderr).toBe(0);
    const branding = jsonOut(brand.stdout).branding as { brandName?: string; colors?: { primary?: string } };
    expect(branding).toMatchObject({ brandName: 'Maple & Co', colors: { primary: '#e4572e' } });
  }, 180_000);

  it('extracts JSON with a schema, through the model of the environment', async () => {
    const schema = JSON.stringify({ type: 'object', properties: { title: { type: 'string' } }, required: ['title'] });
    const result = await firecrawl(['scrape', stack.page(ARTICLE), '--schema', schema, '--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.stringify(jsonOut(result.stdout))).toContain('Sharpening a Hand Plane');
  });

  it('answers a question (-Q) from the page', async () => {
    const result = await firecrawl(['scrape', stack.page(ARTICLE), '-Q', 'Which grit is the coarse stone?']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/1000 grit|coarse stone/);
    // The model saw the page's best passages, not the page.
    const asked = stack.llm.requests
      .at(-1)!
      .body.messages.map((m) => JSON.stringify(m.content))
      .join(' ');
    expect(asked).toContain('coarse stone');
    expect(asked).not.toContain('Test on end grain');
  });

  it('scrapes several URLs at once into .firecrawl/', async () => {
    const result = await firecrawl(['scrape', stack.page(ARTICLE), stack.page('/docs/getting-started.html')]);
    expect(result.code, result.stderr).toBe(0);
    const files = readdirSync(join(stack.dir, '.firecrawl'), { recursive: true }).map(String);
    const markdown = files.filter((f) => f.endsWith('.md'));
    expect(markdown.length).toBeGreaterThanOrEqual(2);
    const texts = markdown.map((f) => readFileSync(join(stack.dir, '.firecrawl', f), 'utf8')).join('\n');
    expect(texts).toContain('Sharpening a Hand Plane');
    expect(texts).toContain('Getting started');
  });

  it('scrapes with --lockdown from the page cache only', async () => {
    const warm = await firecrawl(['scrape', stack.page('/docs/getting-started.html'), '--max-age', '600000']);
    expect(warm.code, warm.stderr).toBe(0);
    const cached = await firecrawl(['scrape', stack.page('/docs/getting-started.html'), '--lockdown']);
    expect(cached.code, cached.stderr).toBe(0);
    expect(cached.stdout).toContain('Getting started');
    const miss = await firecrawl(['scrape', stack.page('/never-fetched.html'), '--lockdown']);
    expect(miss.code).not.toBe(0);
    expect(`${miss.stdout}${miss.stderr}`).toMatch(/page cache/i);
  });
});

describe('firecrawl parse', () => {
  it('parses a local file through POST /v2/parse', async () => {
    writeFileSync(
      join(stack.dir, 'page.html'),
      '<html><head><title>Local</title></head><body><main><h1>Local page</h1><p>A page to parse, kept on disk.</p></main></body></html>',
    );
    const parse = await firecrawl(['parse', join(stack.dir, 'page.html')]);
    expect(parse.code, parse.stderr).toBe(0);
    expect(parse.stdout).toContain('A page to parse, kept on disk.');
  });
});

describe('firecrawl crawl and map', () => {
  it('crawls with --wait: completed and total equal the documents', async () => {
    const result = await firecrawl(['crawl', stack.page('/'), '--limit', '5', '--wait', '--poll-interval', '1']);
    expect(result.code, result.stderr).toBe(0);
    const job = jsonOut(result.stdout) as { status: string; completed: number; total: number; data: unknown[] };
    expect(job.status).toBe('completed');
    expect(job.data).toHaveLength(5);
    expect(job.completed).toBe(5);
    expect(job.total).toBe(5);
  }, 90_000);

  it('starts a crawl, reads its status and cancels it', async () => {
    const started = await firecrawl(['crawl', stack.page('/slow/'), '--limit', '4']);
    expect(started.code, started.stderr).toBe(0);
    const id = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(started.stdout)?.[0];
    expect(id).toBeDefined();
    const status = await firecrawl(['crawl', id!, '--status']);
    expect(status.code, status.stderr).toBe(0);
    expect(jsonOut(status.stdout)).toMatchObject({ id, status: 'scraping' });
    const cancelled = await firecrawl(['crawl', id!, '--cancel']);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    const after = await firecrawl(['crawl', id!, '--status']);
    expect(jsonOut(after.stdout)).toMatchObject({ status: 'cancelled' });
  });

  it('--delay, which the CLI documents in milliseconds, is read in seconds: 500 is refused saying what to send', async () => {
    const result = await firecrawl(['crawl', stack.page('/'), '--delay', '500', '--limit', '2']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'delay is in seconds, at most 60; got 500. For 500 milliseconds between pages, send delay: 0.5.',
    );
  });

  it('maps the site', async () => {
    const result = await firecrawl(['map', stack.page('/'), '--json']);
    expect(result.code, result.stderr).toBe(0);
    const { data } = jsonOut(result.stdout) as { data: { links: { url: string }[] } };
    const links = data.links.map((l) => l.url);
    expect(links).toContain(stack.page('/articles/first-post.html'));
    expect(links).toContain(stack.page('/docs/getting-started.html'));
  });

  it('downloads a site (x download) as files', async () => {
    const result = await firecrawl(['x', 'download', stack.page('/'), '--limit', '3', '--yes'], 90_000);
    expect(result.code, result.stderr).toBe(0);
    const files = readdirSync(join(stack.dir, '.firecrawl'), { recursive: true }).map(String);
    expect(files.some((f) => f.endsWith('.md'))).toBe(true);
  }, 120_000);
});

describe('firecrawl account commands', () => {
  it('credit-usage shows what was used', async () => {
    const result = await firecrawl(['credit-usage', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const { data } = jsonOut(result.stdout) as { data: { remainingCredits: number; planCredits: number } };
    expect(data.planCredits - data.remainingCredits).toBeGreaterThan(0);
    const readable = await firecrawl(['credit-usage']);
    expect(readable.stdout).toMatch(/Used Credits: [1-9]/);
  });

  it('--status shows concurrency and credits', async () => {
    const result = await firecrawl(['--status']);
    expect(result.code, result.stderr).toBe(0);
    const screen = plain(result.stdout);
    expect(screen).toMatch(/Concurrency: \d+\/16 jobs/);
    expect(screen).toMatch(/Credits: [\d,]+ \/ 1,000,000,000/);
    expect(screen).not.toContain('Could not fetch');
  });

  it('doctor passes the API checks', async () => {
    const result = await firecrawl(['doctor', '--json']);
    const checks = (jsonOut(result.stdout) as { checks: { name: string; status: string }[] }).checks;
    const byName = Object.fromEntries(checks.map((c) => [c.name, c.status]));
    expect(byName).toMatchObject({
      'API Key': 'pass',
      'API Key Validity': 'pass',
      Credits: 'pass',
      Concurrency: 'pass',
    });
  });
});

describe('firecrawl search', () => {
  it('finds a page the server stored, by the words of its body', async () => {
    const result = await firecrawl(['search', 'sharpening hand plane', '--limit', '3', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const web = (jsonOut(result.stdout).data as { web: { url: string }[] }).web;
    expect(web[0]!.url).toBe(stack.page(ARTICLE));
  });
});

describe('firecrawl monitor', () => {
  const api = (path: string) =>
    fetch(`${stack.url}/v2${path}`, { headers: { authorization: `Bearer ${stack.key}` } }).then(
      (r) => r.json() as Promise<{ data: Record<string, unknown> }>,
    );

  it('create, get, list, run, check, checks, update and delete a monitor', async () => {
    const created = await firecrawl([
      'monitor',
      'create',
      '--name',
      'article',
      '--schedule',
      'daily at 9:00',
      '--page',
      stack.page(ARTICLE),
    ]);
    expect(created.code, created.stderr).toBe(0);
    const monitor = jsonOut(created.stdout).data as { id: string; schedule: object };
    expect(monitor.schedule).toEqual({ cron: '0 9 * * *', text: 'daily at 9:00', timezone: 'UTC' });
    const id = monitor.id;

    const got = await firecrawl(['monitor', 'get', id]);
    expect(jsonOut(got.stdout).data).toMatchObject({ id, name: 'article', status: 'active' });
    const listed = await firecrawl(['monitor', 'list', '--limit', '50']);
    expect((jsonOut(listed.stdout).data as { id: string }[]).map((m) => m.id)).toContain(id);

    const ran = await firecrawl(['monitor', 'run', id]);
    expect(ran.code, ran.stderr).toBe(0);
    const checkId = (jsonOut(ran.stdout).data as { id: string }).id;
    await until(async () => (await api(`/monitor/${id}/checks/${checkId}`)).data.status !== 'running', 60_000);
    const check = await firecrawl(['monitor', 'check', id, checkId, '--page-status', 'new']);
    expect(check.code, check.stderr).toBe(0);
    expect(jsonOut(check.stdout).data).toMatchObject({
      status: 'completed',
      summary: { totalPages: 1, new: 1 },
      pages: [{ url: stack.page(ARTICLE), status: 'new', statusCode: 200 }],
    });
    const checks = await firecrawl(['monitor', 'checks', id, '--limit', '5']);
    expect((jsonOut(checks.stdout).data as { id: string }[]).map((c) => c.id)).toContain(checkId);

    const paused = await firecrawl(['monitor', 'update', id, '--state', 'paused']);
    expect(jsonOut(paused.stdout).data).toMatchObject({ status: 'paused', nextRunAt: null });
    const deleted = await firecrawl(['monitor', 'delete', id]);
    expect(jsonOut(deleted.stdout)).toEqual({ success: true });
    const gone = await firecrawl(['monitor', 'get', id]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('Monitor not found');
  }, 120_000);

  it('create --goal: the goal kept and judged (the server has a model)', async () => {
    const created = await firecrawl([
      'monitor',
      'create',
      '--name',
      'judged',
      '--schedule',
      'daily at 9:00',
      '--page',
      stack.page(ARTICLE),
      '--goal',
      'new posts about sharpening',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const monitor = jsonOut(created.stdout).data as { id: string };
    expect(monitor).toMatchObject({ goal: 'new posts about sharpening', judgeEnabled: true });
    expect((await firecrawl(['monitor', 'delete', monitor.id])).code).toBe(0);
  });

  it('create --queries --goal: a search target, run on the stored pages', async () => {
    const created = await firecrawl([
      'monitor',
      'create',
      '--name',
      'sharpening',
      '--schedule',
      'daily at 9:00',
      '--queries',
      'sharpened degrees,bevel',
      '--max-results',
      '4',
      '--goal',
      'new posts about sharpening',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const monitor = jsonOut(created.stdout).data as { id: string };
    expect(monitor).toMatchObject({
      targets: [{ type: 'search', queries: ['sharpened degrees', 'bevel'], maxResults: 4 }],
      goal: 'new posts about sharpening',
    });
    const ran = await firecrawl(['monitor', 'run', monitor.id]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(jsonOut(ran.stdout).data).toMatchObject({ targetResults: [{ type: 'search', searchCompleted: true }] });
    expect((await firecrawl(['monitor', 'delete', monitor.id])).code).toBe(0);
  });

  it('refuses --email, and a schedule it cannot read, saying what to write', async () => {
    const email = await firecrawl([
      'monitor',
      'create',
      '--name',
      'x',
      '--schedule',
      'hourly',
      '--page',
      stack.page(ARTICLE),
      '--email',
      'me@example.com',
    ]);
    expect(email.code).toBe(1);
    expect(email.stderr).toContain('crawlkit sends no email');
    const text = await firecrawl([
      'monitor',
      'create',
      '--name',
      'x',
      '--schedule',
      'twice a fortnight',
      '--page',
      stack.page(ARTICLE),
    ]);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('"every N minutes"');
  });
});

describe('the network', () => {
  it('the CLI and the server dialled loopback only; doctor tried the npm registry and was refused', () => {
    const dialled = stack.dialled();
    expect(dialled.filter((d) => d.allowed).length).toBeGreaterThan(10);
    const outside = [...new Set(dialled.filter((d) => !d.allowed).map((d) => d.host))];
    expect(outside).toEqual(['registry.npmjs.org']);
    expect(existsSync(join(stack.dir, '.firecrawl'))).toBe(true);
  });
});
