/**
 * The pages of the durability test, shared by the test (which serves them) and its child process (which crawls
 * and batch-scrapes them). A crawl tree of `CRAWL_PAGES` pages under `CRAWL_PATH` and `BATCH_PAGES` flat pages.
 * Every response carries a serial number unique to that fetch, so a stored document shows which fetch it came from.
 */
export const CRAWL_PATH = '/dur/crawl/';
export const CRAWL_PAGES = 41;
export const BATCH_PAGES = 40;
const FANOUT = 4;

export const crawlPath = (n: number): string => (n === 0 ? CRAWL_PATH : `${CRAWL_PATH}p/${n}`);
export const batchPath = (n: number): string => `/dur/batch/${n}`;

/** Every path a finished crawl must hold. */
export function crawlPaths(): string[] {
  return Array.from({ length: CRAWL_PAGES }, (_, n) => crawlPath(n));
}

/** The HTML of a crawl page (n = 0 is the root) or a batch page, with its fetch serial. */
export function pageHtml(path: string, serial: number): string | undefined {
  const links: number[] = [];
  if (path.startsWith(CRAWL_PATH)) {
    const n = path === CRAWL_PATH ? 0 : Number(path.slice(`${CRAWL_PATH}p/`.length));
    if (!Number.isInteger(n) || n < 0 || n >= CRAWL_PAGES) return undefined;
    for (let child = n * FANOUT + 1; child <= n * FANOUT + FANOUT && child < CRAWL_PAGES; child++) links.push(child);
  } else if (path.startsWith('/dur/batch/')) {
    const n = Number(path.slice('/dur/batch/'.length));
    if (!Number.isInteger(n) || n < 1 || n > BATCH_PAGES) return undefined;
  } else {
    return undefined;
  }
  const anchors = links.map((c) => `<li><a href="${crawlPath(c)}">Page ${c}</a></li>`).join('');
  return (
    // Each page names itself as canonical, as many sites do: the crawl claims its key (its fold by content) in the
    // store, and a page fetched again after a kill is not taken for its own duplicate.
    `<!doctype html><html><head><title>Page ${path}</title><link rel="canonical" href="${path}"></head>` +
    `<body><main><h1>Page ${path}</h1>` +
    `<p>This page is part of the durability test and has enough words to be main content.</p>` +
    `<p>serial ${serial}</p><ul>${anchors}</ul></main></body></html>`
  );
}

/** The fetch serial a stored markdown shows. */
export function serialOf(markdown: string | undefined): number | undefined {
  const match = /serial (\d+)/.exec(markdown ?? '');
  return match ? Number(match[1]) : undefined;
}
