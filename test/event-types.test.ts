/**
 * `Crawlkit`'s events are typed: `on`, `once`, `off` and `emit` take only the names of `CrawlkitEvents`, with their
 * payloads. `pnpm typecheck` checks `typeChecks` below (each `@ts-expect-error` fails the check if its line compiles);
 * the runtime tests check that the events fire with the payloads their types declare.
 */
import { readFileSync } from 'node:fs';

import { useFixtureServer } from './helpers/fixture-engine.ts';
import { Crawlkit, type CrawlkitEvents, type CrawlkitListener, type Document, type ErrorResponse } from 'crawlkit';
import { describe, expect, expectTypeOf, it } from 'vitest';

/** Never called: its lines are checked by the compiler only. */
export function typeChecks(ck: Crawlkit): void {
  // @ts-expect-error: no such event (it is `page`): it would never fire.
  ck.on('page-scraped', () => {});
  // @ts-expect-error: no such event (it is `job:started`).
  ck.once('jobStarted', () => {});
  // @ts-expect-error: no such event (it is `progress`).
  ck.off('progres', () => {});
  // @ts-expect-error: no such event.
  ck.addListener('done', () => {});
  // @ts-expect-error: no such event.
  ck.prependListener('completed', () => {});
  // @ts-expect-error: no such event.
  ck.removeListener('warnings', () => {});
  // @ts-expect-error: no such event.
  ck.emit('scraped', {});
  // @ts-expect-error: no such event.
  ck.listenerCount('pages');
  // @ts-expect-error: a listener of another event's payload.
  ck.on('page', (_event: CrawlkitEvents['progress'][0]) => {});
  // @ts-expect-error: `page` carries a document, not a URL.
  ck.emit('page', { url: 'http://127.0.0.1/' });
  // @ts-expect-error: the payload is required.
  ck.emit('warning');
  // @ts-expect-error: no such warning code (`WARNING_CODES` lists them).
  ck.emit('warning', { code: 'STORE_EMPTY', message: 'told' });

  // The listener's parameter is the declared payload, without annotation.
  ck.on('page', (event) => expectTypeOf(event).toEqualTypeOf<CrawlkitEvents['page'][0]>());
  ck.once('error', (event) => expectTypeOf(event.error).toEqualTypeOf<ErrorResponse>());
  ck.on('schedule:run', (run) => expectTypeOf(run.jobIds).toEqualTypeOf<(string | null)[]>());
  // The emitter's own events stay listenable.
  ck.on('newListener', (name) => expectTypeOf(name).toEqualTypeOf<string | symbol>());
  // A listener declared apart, with the exported type, is taken and removed by the same name.
  const onProgress: CrawlkitListener<'progress'> = ({ completed, total }) => void (completed <= total);
  ck.on('progress', onProgress).off('progress', onProgress);
  expectTypeOf(ck.on('warning', () => {})).toEqualTypeOf<Crawlkit>();
  expectTypeOf(ck.listeners('job:completed')).toEqualTypeOf<CrawlkitListener<'job:completed'>[]>();
}

const site = useFixtureServer();
/** Nothing listens on port 1: the page fails with SCRAPE_CONNECTION_ERROR at once. */
const REFUSED = 'http://127.0.0.1:1/refused';

describe('typed events at run time', () => {
  it('fires page, error and the job events with the declared payloads', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    const pages: { jobId?: string; document: Document }[] = [];
    const errors: CrawlkitEvents['error'][0][] = [];
    const started: CrawlkitEvents['job:started'][0][] = [];
    const progress: CrawlkitEvents['progress'][0][] = [];
    ck.on('page', (event) => pages.push(event));
    ck.on('error', (event) => errors.push(event));
    ck.on('job:started', (event) => started.push(event));
    ck.on('progress', (event) => progress.push(event));
    const completed = new Promise<CrawlkitEvents['job:completed'][0]>((resolve) => ck.once('job:completed', resolve));
    try {
      const url = `${site.server.url}/articles/first-post.html`;
      const direct = await ck.scrape({ url, formats: ['markdown'] });
      expect(direct.success).toBe(true);
      expect(pages).toHaveLength(1);
      expect(pages[0]).not.toHaveProperty('jobId');
      expect(pages[0]?.document.metadata.sourceURL).toBe(url);
      expect(pages[0]?.document.markdown).toMatch(/\w/);

      expect((await ck.scrape({ url: REFUSED })).success).toBe(false);
      expect(errors).toEqual([
        { url: REFUSED, error: expect.objectContaining({ success: false, code: 'SCRAPE_CONNECTION_ERROR' }) },
      ]);

      const batch = await ck.batchScrape({ urls: [url, `${site.server.url}/`], formats: ['markdown'] });
      if (!batch.success) throw new Error(batch.error);
      expect(await completed).toEqual({ id: batch.id, kind: 'batch', status: 'completed' });
      expect(started).toEqual([{ id: batch.id, kind: 'batch', urls: 2 }]);
      expect(pages.filter((page) => page.jobId === batch.id)).toHaveLength(2);
      expect(progress.at(-1)).toMatchObject({ id: batch.id, kind: 'batch', total: 2 });
    } finally {
      await ck.close();
    }
  });

  it('once fires one time, off stops a listener, and emit reaches the listeners of its name only', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    const seen: string[] = [];
    const onPage: CrawlkitListener<'page'> = () => seen.push('on');
    const removed: CrawlkitListener<'page'> = () => seen.push('removed');
    ck.on('page', onPage)
      .once('page', () => seen.push('once'))
      .on('page', removed)
      .off('page', removed);
    ck.on('warning', ({ code }) => seen.push(`warning:${code}`));
    try {
      const url = `${site.server.url}/`;
      for (let i = 0; i < 2; i++) expect((await ck.scrape({ url, maxAge: 0 })).success).toBe(true);
      expect(seen).toEqual(['on', 'once', 'on']);
      expect(ck.listenerCount('page')).toBe(1);
      expect(ck.emit('warning', { code: 'STORE_PAGES_ONLY', message: 'told' })).toBe(true);
      expect(ck.emit('schedule:changes', { id: 's', jobId: 'j', target: 0, queued: 1 })).toBe(false);
      expect(seen.at(-1)).toBe('warning:STORE_PAGES_ONLY');
    } finally {
      await ck.close();
    }
  });
});

/** Every field of each event's payload, by name; the compiler refuses a list that leaves one out. */
type EveryField<E extends keyof CrawlkitEvents, A extends readonly (keyof CrawlkitEvents[E][0])[]> =
  Exclude<keyof CrawlkitEvents[E][0], A[number]> extends never ? A : never;
const field =
  <E extends keyof CrawlkitEvents>() =>
  <const A extends readonly (keyof CrawlkitEvents[E][0])[]>(names: EveryField<E, A>): readonly string[] =>
    names as readonly string[];
const PAYLOADS: { [E in keyof CrawlkitEvents]-?: readonly string[] } = {
  page: field<'page'>()(['jobId', 'document']),
  error: field<'error'>()(['jobId', 'url', 'error']),
  'job:started': field<'job:started'>()(['id', 'kind', 'url', 'urls']),
  'job:completed': field<'job:completed'>()(['id', 'kind', 'status']),
  progress: field<'progress'>()(['id', 'kind', 'total', 'completed', 'creditsUsed']),
  warning: field<'warning'>()(['code', 'message']),
  'schedule:run': field<'schedule:run'>()(['id', 'dueAt', 'startedAt', 'jobIds', 'skipped', 'errors']),
  'schedule:changes': field<'schedule:changes'>()(['id', 'jobId', 'target', 'queued']),
};

describe("the README's table of events", () => {
  it('names every event of CrawlkitEvents with every field of its payload', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('### Events, cancellation and logging'));
    const rows = new Map(
      [
        ...section
          .slice(0, section.indexOf('\n\n', section.indexOf('| Event')))
          .matchAll(/^\| `([\w:]+)` +\| (.*?) \|/gm),
      ].map((m) => [m[1]!, m[2]!]),
    );
    expect([...rows.keys()].toSorted()).toEqual(Object.keys(PAYLOADS).toSorted());
    for (const [event, fields] of Object.entries(PAYLOADS)) {
      const told = [...(rows.get(event) ?? '').matchAll(/(\w+)\??[,} ]/g)].map((m) => m[1]);
      for (const name of fields) expect(told, `${event}: ${name}`).toContain(name);
    }
  });
});
