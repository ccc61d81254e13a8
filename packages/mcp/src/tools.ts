/** The MCP tools: firecrawl-mcp's names and shapes, answered by a crawlkit engine under the server's admission. */
import type { Admission } from '@crawlkit/server';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type {
  BatchScrapeRequestInput,
  CallOptions,
  Crawlkit,
  CrawlRequestInput,
  ErrorResponse,
  JobStatusResponse,
} from 'crawlkit';

import {
  batchShape,
  crawlShape,
  idShape,
  mapShape,
  scrapeOptionsOf,
  scrapeShape,
  searchShape,
  withoutNulls,
} from './tool-params.js';
import { toolResult as result } from './tool-result.js';

/**
 * A job's status with every page stored so far, as firecrawl-mcp answers it: it follows `next`, which an agent could
 * not (no tool reads a `crawlkit://` address), so a status of more pages than one status page holds left the rest out.
 */
async function wholeStatus(
  read: (idOrNext: string) => Promise<JobStatusResponse | ErrorResponse>,
  id: string,
): Promise<JobStatusResponse | ErrorResponse> {
  const first = await read(id);
  if (!first.success) return first;
  const { next: firstNext, ...status } = first;
  const data = [...first.data];
  for (let next = firstNext; next !== undefined;) {
    const page = await read(next);
    if (!page.success) return page;
    data.push(...page.data);
    next = page.next;
  }
  return { ...status, data };
}

const READ = { readOnlyHint: true, destructiveHint: false, openWorldHint: true } as const;
const START = { readOnlyHint: false, destructiveHint: false, openWorldHint: true } as const;
const STATUS = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;

/** What every call of a session carries: the API key's tenant (HTTP), and the credit limit. */
export type SessionCall = Pick<CallOptions, 'tenant' | 'creditLimit'>;

/**
 * Registers every tool on `server`. Each call carries `session` and the call's `signal` (the client went away); the
 * engine reserves its credits under the limit, as for the HTTP server.
 */
export function registerTools(server: McpServer, ck: Crawlkit, admission: Admission, session: SessionCall): void {
  /** A synchronous call, admitted like an HTTP request: one of `queueLimit` in progress. */
  const admitted = async (work: () => Promise<unknown>): Promise<CallToolResult> =>
    result(await admission.queued(work));
  const call = (signal: AbortSignal): CallOptions => ({ ...session, signal });

  server.registerTool(
    'firecrawl_scrape',
    {
      title: 'Scrape a page',
      description:
        'Scrape one URL and return its content: markdown by default, or HTML, links, a screenshot, branding, or JSON ' +
        "matching a schema. Served from crawlkit's page cache when fresh (`maxAge`, default two days); `maxAge: 0` " +
        'fetches it live.',
      inputSchema: scrapeShape,
      annotations: START,
    },
    async ({ url, ...options }, { signal }) =>
      admitted(() => ck.scrape({ url, ...scrapeOptionsOf(options) }, call(signal))),
  );

  server.registerTool(
    'firecrawl_map',
    {
      title: 'Map a site',
      description:
        "List a website's URLs (sitemaps and links) without fetching each page's content; `search` orders them by a term.",
      inputSchema: mapShape,
      annotations: READ,
    },
    async (args, { signal }) => admitted(() => ck.map(withoutNulls(args), call(signal))),
  );

  server.registerTool(
    'firecrawl_search',
    {
      title: 'Search',
      description:
        'Search the pages crawlkit has crawled and cached (BM25, phrases in quotes, prefix*, -excluded words, ' +
        'site:host and -site:host), and ' +
        'the web when the server has a provider (SearXNG, Brave). Results are grouped by source (`web`, `news`, ' +
        "`images`, `local`), each a title, URL and matching passage; `scrapeOptions` adds each page's content.",
      inputSchema: searchShape,
      annotations: READ,
    },
    async ({ scrapeOptions, ...args }, { signal }) =>
      admitted(() =>
        ck.search(
          {
            ...withoutNulls(args),
            ...(scrapeOptions ? { scrapeOptions: scrapeOptionsOf(scrapeOptions) } : {}),
          },
          call(signal),
        ),
      ),
  );

  server.registerTool(
    'firecrawl_crawl',
    {
      title: 'Crawl a site',
      description:
        'Crawl a website from a URL, following links and sitemaps within `limit`, paths and depth; waits for the ' +
        'crawl to finish and returns its status and pages. Use conservative limits.',
      inputSchema: crawlShape,
      annotations: START,
    },
    async (args, { signal, _meta, sendNotification }) => {
      const { scrapeOptions, maxConcurrency, webhook, webhookHeaders, ...rest } = withoutNulls(args);
      const body = {
        ...rest,
        ...(maxConcurrency !== undefined ? { maxConcurrency } : {}),
        ...(webhook ? { webhook: webhookHeaders ? { url: webhook, headers: webhookHeaders } : webhook } : {}),
        ...(scrapeOptions ? { scrapeOptions: scrapeOptionsOf(scrapeOptions) } : {}),
      } as CrawlRequestInput;
      const started = await ck.crawl(body, call(signal));
      if (!started.success) return result(started);
      // Each page settled is told to a client that asked for progress: a host that resets its request timeout on
      // progress waits for a long crawl instead of cancelling it.
      const token = _meta?.progressToken;
      let told = -1;
      const tell = async (completed: number, total: number): Promise<void> => {
        // Progress only goes up (MCP): a count told already is not told again.
        if (token === undefined || completed <= told) return;
        told = completed;
        const params = { progressToken: token, progress: completed, total, message: `${completed} of ${total} pages` };
        await sendNotification({ method: 'notifications/progress', params }).catch(() => undefined);
      };
      const onProgress = ({ id, completed, total }: { id: string; completed: number; total: number }) => {
        if (id === started.id) void tell(completed, total);
      };
      ck.on('progress', onProgress);
      const status = await ck.waitForJob(started.id, call(signal)).finally(() => ck.off('progress', onProgress));
      // The last page's counts may be read after the job is seen ended: the final ones are told from its status.
      // Awaited: over streamable HTTP the answer ends the call's stream, and a notification sent after it is lost.
      if (status.success) await tell(status.completed, status.total);
      // The agent cancelled the call before it learnt the crawl's id: nobody could read or stop the crawl after.
      if (signal.aborted) await ck.cancelCrawl(started.id, session);
      return result(status.success ? { id: started.id, ...status } : status);
    },
  );

  server.registerTool(
    'firecrawl_check_crawl_status',
    {
      title: 'Crawl status',
      description: 'The status, progress and results so far of a crawl, by its id.',
      inputSchema: idShape,
      annotations: STATUS,
    },
    async ({ id }, { signal }) => result(await wholeStatus((at) => ck.getCrawlStatus(at, {}, call(signal)), id)),
  );

  server.registerTool(
    'firecrawl_batch_scrape',
    {
      title: 'Batch scrape',
      description:
        'Start scraping many URLs with the same options; returns the batch id at once. Read its pages with ' +
        '`firecrawl_check_batch_status`.',
      inputSchema: batchShape,
      annotations: START,
    },
    async (args, { signal }) => {
      const { urls, options } = withoutNulls(args);
      const body = { urls, ...(options ? scrapeOptionsOf(options) : {}) } as BatchScrapeRequestInput;
      return result(await ck.batchScrape(body, call(signal)));
    },
  );

  server.registerTool(
    'firecrawl_check_batch_status',
    {
      title: 'Batch status',
      description: 'The status, progress and results so far of a batch scrape, by its id.',
      inputSchema: idShape,
      annotations: STATUS,
    },
    async ({ id }, { signal }) => result(await wholeStatus((at) => ck.getBatchScrapeStatus(at, {}, call(signal)), id)),
  );

  server.registerTool(
    'firecrawl_credit_usage',
    {
      title: 'Credit usage',
      description:
        'Credits this crawlkit instance has accounted for (nothing is charged locally), against its credit limit ' +
        'when it has one.',
      inputSchema: {},
      annotations: STATUS,
    },
    async () => result(await admission.creditUsage()),
  );
}
