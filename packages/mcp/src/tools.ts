/** The MCP tools: firecrawl-mcp's names and shapes, answered by a crawlkit engine under the server's admission. */
import type { Admission } from '@crawlkit/server';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { BatchScrapeRequestInput, CallOptions, Crawlkit, CrawlRequestInput, StatusPagination } from 'crawlkit';

import { tellingUnknownArguments } from './bad-arguments.js';
import { DEFAULT_ANSWER_CHARS, linksSlice, readFrom, statusSlice } from './answer-budget.js';
import { registerExtractTool } from './extract-tool.js';
import { InFlight } from './in-flight.js';
import { registerMonitorTools } from './monitor-tools.js';
import { registerParseTool, type ParseFiles } from './parse-tool.js';
import type { SessionCall, ToolKit } from './tool-kit.js';
import {
  batchOptionsOf,
  batchShape,
  cancelShape,
  crawlShape,
  mapShape,
  scrapeOptionsOf,
  scrapeShape,
  searchShape,
  statusShape,
  withoutNulls,
} from './tool-params.js';
import { toolResult, type AnswerShape } from './tool-result.js';

/** See `ToolAnswers.crawlWaitMs`. */
const DEFAULT_CRAWL_WAIT_MS = 45_000;

const READ = { readOnlyHint: true, destructiveHint: false, openWorldHint: true } as const;
const START = { readOnlyHint: false, destructiveHint: false, openWorldHint: true } as const;
const STATUS = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;
const CANCEL = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false } as const;

export type { SessionCall };

/** How the tools answer. */
export interface ToolAnswers {
  /**
   * Characters of JSON text in one answer: a job's pages beyond it are read with `skip`, a longer text is cut and
   * read on with `offset` (each answer says how). @default 80000 (firecrawl-mcp's inline budget of 20,000 tokens)
   */
  maxAnswerChars?: number;
  /**
   * Milliseconds `firecrawl_crawl` waits for its crawl; one still running then is answered with its id and pages so
   * far, and followed with `firecrawl_check_crawl_status`. Under the 60 s a host on the MCP SDK waits for an answer
   * before it cancels the call (and with it the crawl). @default 45000
   */
  crawlWaitMs?: number;
}

/** How the tools answer, and which are offered. */
export interface ToolSettings extends ToolAnswers {
  /**
   * Where `firecrawl_parse` reads files (its `root`) and how large (serve's `parseFileLimit`).
   * @default none: the tool is not offered
   */
  parseFiles?: ParseFiles;
}

/**
 * The first progress notification of a job started by a tool: its id and the tool that reads it, so that a client
 * whose call is lost before the answer (the server killed, the connection gone) can still follow the job.
 */
function startedMessage(kind: 'crawl' | 'batch', id: string, statusTool: string): string {
  return `${kind} ${id} started (${statusTool} reads it by this id)`;
}

/**
 * Registers every tool on `server`, their calls counted by `inFlight`. Each call carries `session` and the call's
 * `signal` (the client went away); the engine reserves its credits under the limit, as for the HTTP server.
 */
export function registerTools(
  server: McpServer,
  ck: Crawlkit,
  admission: Admission,
  session: SessionCall,
  answers: ToolSettings = {},
  inFlight = new InFlight(),
): void {
  /** Registers a tool whose calls `inFlight` counts until they settle. */
  const tool: McpServer['registerTool'] = (name, config, callback) =>
    server.registerTool(
      name,
      config,
      inFlight.track(tellingUnknownArguments(callback as (...args: never[]) => Promise<CallToolResult>)) as never,
    );
  const budget = answers.maxAnswerChars ?? DEFAULT_ANSWER_CHARS;
  const crawlWaitMs = answers.crawlWaitMs ?? DEFAULT_CRAWL_WAIT_MS;
  const result = (value: unknown, shape: AnswerShape = {}) => toolResult(value, { budget, ...shape });
  /** A synchronous call, admitted like an HTTP request: one of `queueLimit` in progress (its key's). */
  const admitted = async (work: () => Promise<unknown>): Promise<CallToolResult> =>
    result(await admission.queued(work, session.tenant));
  const call = (signal: AbortSignal): CallOptions => ({ ...session, signal });
  /** Reads a page of a job's status, by pagination. */
  const crawlPages = (id: string, signal: AbortSignal) => (page: StatusPagination) =>
    ck.getCrawlStatus(id, page, call(signal));
  const batchPages = (id: string, signal: AbortSignal) => (page: StatusPagination) =>
    ck.getBatchScrapeStatus(id, page, call(signal));
  /** A cancel tool's answer: the v2 one, and the status call that reads the pages stored before it. */
  const cancelled =
    (job: 'crawl' | 'batch', statusTool: string) =>
    async ({ id }: { id: string }, { signal }: { signal: AbortSignal }): Promise<CallToolResult> => {
      const init = call(signal);
      const answer = await (job === 'crawl' ? ck.cancelCrawl(id, init) : ck.cancelBatchScrape(id, init));
      if (!('status' in answer)) return result(answer);
      return result({
        ...answer,
        message: `The ${job} is cancelled; the pages it stored before are kept. Call ${statusTool} with id to read them.`,
        nextTool: { name: statusTool, arguments: { id } },
      });
    };

  tool(
    'firecrawl_scrape',
    {
      title: 'Scrape a page',
      description:
        'Scrape one URL and return its content: markdown by default, or HTML, links, a screenshot, branding, or JSON ' +
        "matching a schema. Served from crawlkit's page cache when fresh (`maxAge`, default two days); `maxAge: 0` " +
        'fetches it live. A long page is cut to keep the answer short, with a note giving the `offset` that reads on ' +
        '(the `skip` of its links and images).',
      inputSchema: scrapeShape,
      annotations: START,
    },
    async ({ url, offset, skip, ...options }, { signal }) => {
      const page = await admission.queued(
        () => ck.scrape({ url, ...scrapeOptionsOf(options) }, call(signal)),
        session.tenant,
      );
      const from = { offset: offset ?? 0, skip: skip ?? 0 };
      return result(readFrom(page, from), from);
    },
  );

  tool(
    'firecrawl_map',
    {
      title: 'Map a site',
      description:
        "List a website's URLs (sitemaps and links) without fetching each page's content; `search` orders them by a " +
        'term. As many links as fit one answer, from `skip`; the answer gives the `skip` of the next ones.',
      inputSchema: mapShape,
      annotations: READ,
    },
    async ({ skip, ...args }, { signal }) => {
      const request = withoutNulls(args);
      const links = await admission.queued(() => ck.map(request, call(signal)), session.tenant);
      return result(linksSlice(links, skip ?? 0, budget, request));
    },
  );

  tool(
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

  tool(
    'firecrawl_crawl',
    {
      title: 'Crawl a site',
      description:
        'Crawl a website from a URL, following links and sitemaps within `limit`, paths and depth; waits for the ' +
        `crawl to finish (${crawlWaitMs / 1000} s at most: a crawl still running is answered with its id, to ` +
        'follow with `firecrawl_check_crawl_status`) and returns its id, status and pages: as many as fit one ' +
        'answer, with the `firecrawl_check_crawl_status` call (`skip`) that reads the next ones. Use conservative ' +
        'limits.',
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
      const started = await admission.withRoom(() => ck.crawl(body, call(signal)));
      if (!started.success) return result(started);
      // Each page settled is told to a client that asked for progress: a host that resets its request timeout on
      // progress waits for a long crawl instead of cancelling it.
      const token = _meta?.progressToken;
      let told = -1;
      // Each names the crawl: a client whose call is lost (the server killed, the connection gone) still has its id.
      const tell = async (completed: number, total?: number): Promise<void> => {
        // Progress only goes up (MCP): a count told already is not told again.
        if (token === undefined || completed <= told) return;
        told = completed;
        const message =
          total === undefined
            ? startedMessage('crawl', started.id, 'firecrawl_check_crawl_status')
            : `crawl ${started.id}: ${completed} of ${total} pages`;
        const params = {
          progressToken: token,
          progress: completed,
          ...(total === undefined ? {} : { total }),
          message,
        };
        await sendNotification({ method: 'notifications/progress', params }).catch(() => undefined);
      };
      await tell(0);
      const onProgress = ({ id, completed, total }: { id: string; completed: number; total: number }) => {
        if (id === started.id) void tell(completed, total);
      };
      ck.on('progress', onProgress);
      const waiting = AbortSignal.any([signal, AbortSignal.timeout(crawlWaitMs)]);
      // The end waited for without the crawl's pages: the answer reads only the slice it holds (statusSlice).
      const status = await ck
        .waitForJob(started.id, { ...call(waiting), documents: false })
        .finally(() => ck.off('progress', onProgress));
      // The last page's counts may be read after the job is seen ended: the final ones are told from its status.
      // Awaited: over streamable HTTP the answer ends the call's stream, and a notification sent after it is lost.
      if (status.success) await tell(status.completed, status.total);
      // The agent cancelled the call before it learnt the crawl's id: nobody could read or stop the crawl after.
      if (signal.aborted) await ck.cancelCrawl(started.id, session);
      // Still running after crawlWaitMs: answered now, with the id the agent follows it by.
      const running = waiting.aborted && !signal.aborted;
      if (!status.success && !running) return result(status);
      const slice = await statusSlice(
        crawlPages(started.id, signal),
        started.id,
        'firecrawl_check_crawl_status',
        0,
        budget,
      );
      if (!slice.success) return result(slice);
      if (running && slice.status === 'scraping' && slice.nextTool === undefined) {
        const shown = slice.data.length;
        slice.message =
          `The crawl is still running (${slice.completed} of ${slice.total} pages so far; this call waits ` +
          `${crawlWaitMs / 1000} s at most). Call firecrawl_check_crawl_status with id and skip: ${shown} for the ` +
          'pages after these, until its status is completed, or firecrawl_cancel_crawl with id to stop it.';
        slice.nextTool = { name: 'firecrawl_check_crawl_status', arguments: { id: started.id, skip: shown } };
      }
      return result({ id: started.id, ...slice });
    },
  );

  tool(
    'firecrawl_check_crawl_status',
    {
      title: 'Crawl status',
      description:
        'The status, progress and pages so far of a crawl, by its id: as many pages as fit one answer, from `skip`; ' +
        'the answer gives the `skip` of the next ones when some are left out.',
      inputSchema: statusShape,
      annotations: STATUS,
    },
    async ({ id, skip }, { signal }) =>
      result(await statusSlice(crawlPages(id, signal), id, 'firecrawl_check_crawl_status', skip ?? 0, budget)),
  );

  tool(
    'firecrawl_cancel_crawl',
    {
      title: 'Cancel a crawl',
      description:
        "crawlkit's own (not firecrawl-mcp's): stop a crawl still running, by its id (one `firecrawl_crawl` answered " +
        'still running, say). The pages it stored are kept, read with `firecrawl_check_crawl_status`.',
      inputSchema: cancelShape,
      annotations: CANCEL,
    },
    cancelled('crawl', 'firecrawl_check_crawl_status'),
  );

  tool(
    'firecrawl_batch_scrape',
    {
      title: 'Batch scrape',
      description:
        'Start scraping many URLs with the same options (beside `urls`, as firecrawl_scrape takes them, or in ' +
        '`options`); returns the batch id at once. Read its pages with `firecrawl_check_batch_status` (stop it with ' +
        '`firecrawl_cancel_batch`).',
      inputSchema: batchShape,
      annotations: START,
    },
    async ({ urls, ...args }, { signal, _meta, sendNotification }) => {
      const options = batchOptionsOf(args);
      if (typeof options === 'string') return result({ success: false, code: 'BAD_REQUEST', error: options });
      const body = { urls, ...scrapeOptionsOf(options) } as BatchScrapeRequestInput;
      const started = await admission.withRoom(() => ck.batchScrape(body, call(signal)));
      if (!started.success) return result(started);
      // Named to a client that asked for progress, as a crawl is: one whose call is lost before the answer has its id.
      const token = _meta?.progressToken;
      if (token !== undefined) {
        const message = startedMessage('batch', started.id, 'firecrawl_check_batch_status');
        const params = { progressToken: token, progress: 0, total: urls.length, message };
        await sendNotification({ method: 'notifications/progress', params }).catch(() => undefined);
      }
      // The v2 answer's `url` is no call an agent over MCP makes: the answer names the one that reads the pages.
      return result({
        ...started,
        message:
          'The batch is running. Call firecrawl_check_batch_status with id for its pages, until its status is ' +
          'completed, or firecrawl_cancel_batch with id to stop it.',
        nextTool: { name: 'firecrawl_check_batch_status', arguments: { id: started.id } },
      });
    },
  );

  tool(
    'firecrawl_check_batch_status',
    {
      title: 'Batch status',
      description:
        'The status, progress and pages so far of a batch scrape, by its id: as many pages as fit one answer, from ' +
        '`skip`; the answer gives the `skip` of the next ones when some are left out.',
      inputSchema: statusShape,
      annotations: STATUS,
    },
    async ({ id, skip }, { signal }) =>
      result(await statusSlice(batchPages(id, signal), id, 'firecrawl_check_batch_status', skip ?? 0, budget)),
  );

  tool(
    'firecrawl_cancel_batch',
    {
      title: 'Cancel a batch scrape',
      description:
        "crawlkit's own (not firecrawl-mcp's): stop a batch scrape still running, by its id. The pages it stored are " +
        'kept, read with `firecrawl_check_batch_status`.',
      inputSchema: cancelShape,
      annotations: CANCEL,
    },
    cancelled('batch', 'firecrawl_check_batch_status'),
  );

  tool(
    'firecrawl_credit_usage',
    {
      title: 'Credit usage',
      description:
        'Credits this crawlkit instance has accounted for (nothing is charged locally), for your API key when each ' +
        'key is its own team, against its credit limit when it has one.',
      inputSchema: {},
      annotations: STATUS,
    },
    async () => result(await admission.creditUsage(session)),
  );

  const kit: ToolKit = { ck, admission, session, tool, result, call };
  if (answers.parseFiles) registerParseTool(kit, answers.parseFiles);
  registerMonitorTools(kit);
  registerExtractTool(server, kit);
}
