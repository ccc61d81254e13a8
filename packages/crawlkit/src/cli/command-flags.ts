/**
 * The own flags of the commands that have some beyond the shared ones (body, model, Redis, listen): part of the
 * program's definition, loaded at every start (`--help` lists them), so this module imports no command and nothing
 * of the engine. Each command's module reads them when it runs.
 */
import type { Command } from 'commander';

import { LISTENER_DEFAULTS } from '@crawlkit/options/listener-options';

import { ENGINE_DEFAULTS } from '../engine-defaults.js';
import { CONFIG_FILE } from './config-file.js';
import { addListenFlags } from './listen-flags.js';
import { addLogFormatFlag } from './log-flags.js';
import { PDF_MAX_PAGES_FLAG } from './pdf-pages.js';
import { addRedisFlags } from './redis-flags.js';
import { addProviderFlags } from './search-provider.js';

/** The port of `crawlkit serve` when none is given. */
export const SERVE_PORT = LISTENER_DEFAULTS.port;
/** The port of `crawlkit mcp --http` when none is given. */
export const MCP_PORT = 3003;

/** Adds explain's own flags (the scrape flags come from `addBodyFlags`). */
export function addExplainFlags(command: Command): Command {
  return command
    .option('--find <text>', 'only the blocks holding this text (any case), each with the options that would keep it')
    .option('--html <file>', "explain this file's HTML instead of fetching the page (the URL is its base)")
    .option('--json', 'print the explanation as JSON');
}

/** The flags of `crawlkit parse`. */
export function addParseFlags(command: Command): Command {
  return command
    .option('-f, --format <list>', 'formats, comma-separated: markdown, summary, html, rawHtml, links, images, json')
    .option('--pdf-mode <mode>', 'PDF pages read by OCR: fast (none), auto (pages without text, default) or ocr (all)')
    .option(PDF_MAX_PAGES_FLAG.flags, PDF_MAX_PAGES_FLAG.description)
    .option('--no-images', 'do not read images by OCR (an image is then an unsupported file)')
    .option('--content-type <type>', "the file's MIME type (default: from its bytes, then its name for text formats)")
    .option('--timeout <ms>', 'time the parse may take (default 60000)')
    .option(
      '--parse-file-limit <bytes>',
      `largest file parsed, then PAYLOAD_TOO_LARGE before any work (default ${ENGINE_DEFAULTS.parseFileLimit})`,
    )
    .option('--body <file>', 'parse options as a JSON object (flags override it); - reads stdin');
}

/** Adds the `search` options to its command. */
export function addSearchFlags(command: Command): Command {
  const repeat = (value: string, previous: string[] = []) => [...previous, value];
  return addProviderFlags(
    command
      .option('--limit <n>', 'results at most (default 5, at most 100)')
      .option('--site <domain>', 'only pages of this domain and its subdomains; repeatable', repeat)
      .option('--exclude-site <domain>', 'no pages of this domain and its subdomains; repeatable', repeat)
      .option(
        '--tbs <filter>',
        'time filter: qdr:h, qdr:d, qdr:w, qdr:m, qdr:y, or cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY',
      )
      .option('--source <source>', 'web, news, images or local (the stored pages); repeatable', repeat)
      .option('--location <place>', "where to search from, for the web provider (e.g. 'Germany')")
      .option('--country <code>', 'country of the web results, for the web provider (ISO code, e.g. de)')
      .option('--timeout <ms>', 'give up after this long, scrapes of the results included (default 60000)')
      .option(
        '-f, --format <list>',
        'scrape each result into these formats, comma-separated (markdown, html, links, summary...); printed under it',
      )
      .option('--config <file>', `settings file of serve, for its searchProvider (default ./${CONFIG_FILE})`),
  );
}

/** Adds the `serve` options to its command. */
export function addServeFlags(command: Command): Command {
  return addRedisFlags(
    addLogFormatFlag(addListenFlags(command, { port: SERVE_PORT, addressFromEnv: true })),
    "a distributed deployment's Redis: jobs live there and `crawlkit worker`s run their pages (not serve)",
  )
    .option(
      '--public-url <url>',
      "address clients reach the server at behind a proxy (https://api.example/crawlkit): job URLs are built on it (default: the request's own address); env CRAWLKIT_PUBLIC_URL",
    )
    .option(
      '--trust-proxy <addresses>',
      'believe X-Forwarded-Proto/-Host from these proxies: loopback, CIDRs (comma-separated) or all (default: none); env CRAWLKIT_TRUST_PROXY',
    )
    .option(
      '--body-timeout <ms>',
      `time a request's headers, and then its body, may take to arrive, then 408 (default ${LISTENER_DEFAULTS.bodyTimeoutMs})`,
    )
    .option(
      '--close-timeout <ms>',
      `on SIGTERM, how long requests in progress may finish before they are aborted (default ${LISTENER_DEFAULTS.closeTimeoutMs}; below your stop grace period)`,
    )
    .option(
      '--parse-file-limit <bytes>',
      `largest file POST /v2/parse takes, then 413 (default ${ENGINE_DEFAULTS.parseFileLimit})`,
    )
    .option('--ready-min-free <MiB>', READY_MIN_FREE_HELP)
    .option(
      '--job-ttl <ms>',
      `how long a job's results (crawls, batches, kept scrapes) stay after it ends, then deleted (default ${ENGINE_DEFAULTS.jobResultTtlMs}: 24 h)`,
    )
    .option(
      '--resume-scan <ms>',
      `how often to look for jobs a dead process on the store left, and take them over (default ${ENGINE_DEFAULTS.resumeScanMs})`,
    );
}

/** The help of serve's `--ready-min-free`. */
const READY_MIN_FREE_HELP =
  "room the store must have left (its disk, Redis's maxmemory) for /ready to answer ready and new crawls and " +
  `batches to be taken, else 503 STORE_FULL (default ${LISTENER_DEFAULTS.readyMinFreeMb}, or an eighth of the store's size when less; 0: no check)`;

/** Adds the `mcp` options to its command. */
export function addMcpFlags(command: Command): Command {
  command.option('--http', 'serve streamable HTTP at /mcp instead of stdio');
  command.option(
    '--max-answer-chars <n>',
    "characters of one tool answer; more pages are read with skip, a longer page's text with offset (default 80000)",
  );
  command.option(
    '--crawl-wait-ms <n>',
    'how long firecrawl_crawl waits, then answers a crawl still running with its id (default 45000)',
  );
  command.option(
    '--parse-root <dir>',
    'firecrawl_parse reads files under this folder only (relative paths against it); with --http, offered only then',
  );
  command.option(
    '--parse-file-limit <bytes>',
    `largest file firecrawl_parse reads and the engine parses (default ${ENGINE_DEFAULTS.parseFileLimit})`,
  );
  command.option(
    '--ready-min-free <MiB>',
    "room the store must have left (its disk, Redis's maxmemory) for firecrawl_crawl, firecrawl_batch_scrape and " +
      `firecrawl_monitor_run to start a job, else a STORE_FULL tool error (default ${LISTENER_DEFAULTS.readyMinFreeMb}, or an eighth of the store when ` +
      'less; 0: no check)',
  );
  return addListenFlags(command, { port: MCP_PORT, httpOnly: 'with --http' });
}
