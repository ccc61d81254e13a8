/**
 * One fresh process of `bench/startup.ts`: imports a library and, unless the mode is an import alone, turns one
 * local page into markdown, then prints `{"importMs", "firstMs", "chars"}` on stdout and exits. `importMs` is the
 * import itself; `firstMs` is `performance.now()` when the result is in hand, i.e. since the process started
 * (Node's own start-up included, the same for every row).
 *
 *   node bench/lib/startup-child.ts <mode> <url> <storeDir>
 *   modes: crawlkit-import, crawlkit-scrape, crawlee-scrape, floor-scrape, node
 */
import { rmSync } from 'node:fs';

import type * as CrawlkitModule from 'crawlkit';
import { crawlkitEntry } from './crawlkit-build.ts';

const [mode, url = '', storeDir = ''] = process.argv.slice(2);

function report(importMs: number, chars: number): void {
  process.stdout.write(`${JSON.stringify({ importMs, firstMs: performance.now(), chars })}\n`);
}

async function timedImport<T>(load: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const module = await load();
  return [module, performance.now() - start];
}

switch (mode) {
  case 'node':
    report(0, 0);
    break;
  case 'crawlkit-import': {
    const [, ms] = await timedImport(() => import(crawlkitEntry));
    report(ms, 0);
    break;
  }
  case 'crawlkit-scrape': {
    const [{ Crawlkit }, ms] = await timedImport(() => import(crawlkitEntry) as Promise<typeof CrawlkitModule>);
    const ck = new Crawlkit({ storeDir });
    const result = await ck.scrape({ url, formats: ['markdown'] });
    if (!result.success) throw new Error(`scrape failed: ${result.error}`);
    report(ms, result.data.markdown?.length ?? 0);
    await ck.close();
    break;
  }
  case 'crawlee-scrape': {
    process.env['CRAWLEE_STORAGE_DIR'] = storeDir;
    const [[{ CheerioCrawler, Configuration, log, LogLevel }, { default: TurndownService }], ms] = await timedImport(
      () => Promise.all([import('@crawlee/cheerio'), import('turndown')]),
    );
    log.setLevel(LogLevel.WARNING);
    let chars = 0;
    const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
    const crawler = new CheerioCrawler(
      {
        maxRequestRetries: 0,
        requestHandler({ $ }) {
          chars = turndown.turndown($('body').html() ?? '').length;
          report(ms, chars);
        },
      },
      new Configuration({ persistStorage: false }),
    );
    await crawler.run([url]);
    if (chars === 0) throw new Error('crawlee scraped nothing');
    break;
  }
  case 'floor-scrape': {
    const [[{ request }, { parseDocument, DomUtils }], ms] = await timedImport(() =>
      Promise.all([import('undici'), import('htmlparser2')]),
    );
    const response = await request(url);
    const document = parseDocument(await response.body.text());
    report(ms, DomUtils.textContent(document).length);
    break;
  }
  default:
    throw new Error(`unknown mode ${mode}`);
}
if (storeDir) rmSync(storeDir, { recursive: true, force: true });
