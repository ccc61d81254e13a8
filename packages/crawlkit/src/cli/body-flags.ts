import { Option, type Command } from 'commander';

import { CliError } from './errors.js';
import { readJsonArgument } from './file-arguments.js';
import { FORMAT_OBJECT_FLAGS, withFormatObjectFlags } from './format-object-flags.js';
import { isLocalFile } from './local-file.js';
import { PDF_MAX_PAGES_FLAG, pdfMaxPagesValue, withPdfMaxPages } from './pdf-pages.js';

/** How a flag's text becomes a value of the v2 body. */
type FlagKind =
  /** A string as given. */
  | 'string'
  /** A number when the text is numeric; otherwise the text, so the API's own validation message reports it. */
  | 'number'
  | 'boolean'
  /** A comma-separated list. */
  | 'list'
  /** Repeatable; each use adds one item. */
  | 'repeat'
  /** `Name: value`, repeatable, into an object. */
  | 'header'
  /** Inline JSON, or `@file.json`. */
  | 'json'
  /**
   * A comma-separated list, or JSON as `json` reads it when the text starts with `[`, `{` or `@` (an object is a list
   * of one): names for the common case, objects for their options.
   */
  | 'listOrJson';

/** One command-line flag that sets a field of the v2 body. */
export interface BodyFlag {
  /** Commander flags, e.g. `--include-path <regex>`; booleans may start with `--no-`. */
  flags: string;
  /** Dotted path of the field in the body, e.g. `location.country`. */
  key: string;
  kind: FlagKind;
  description: string;
  /**
   * A whole flag with a JSON value, told as what to write when a `json` or `listOrJson` value is not JSON.
   * @default none: the parser's message alone
   */
  example?: string;
}

const SCRAPE_FLAGS: BodyFlag[] = [
  {
    flags: '-f, --format <list>',
    key: 'formats',
    kind: 'list',
    description:
      'formats, comma-separated: markdown, summary, html, rawHtml, links, images, screenshot, changeTracking ' +
      "(with markdown; --change-modes, --change-tag), branding, product, jobPosting (from the page's structured " +
      'data, no model), json (with --schema or --json-prompt, and a model); ' +
      'one prints as itself, several as the JSON of the page',
  },
  { flags: '--only-main-content', key: 'onlyMainContent', kind: 'boolean', description: 'main content only (default)' },
  { flags: '--no-only-main-content', key: 'onlyMainContent', kind: 'boolean', description: 'keep header, nav, footer' },
  { flags: '--include-tags <list>', key: 'includeTags', kind: 'list', description: 'CSS selectors to keep' },
  { flags: '--exclude-tags <list>', key: 'excludeTags', kind: 'list', description: 'CSS selectors to drop' },
  { flags: '--max-age <ms>', key: 'maxAge', kind: 'number', description: 'use a cached copy younger than this' },
  {
    flags: '--min-age <ms>',
    key: 'minAge',
    kind: 'number',
    description: 'serve only a cached copy at least this old, never fetch (none: SCRAPE_NO_CACHED_DATA)',
  },
  {
    flags: '--lockdown',
    key: 'lockdown',
    kind: 'boolean',
    description: 'the page cache only, at any age, no network at all (none: SCRAPE_LOCKDOWN_CACHE_MISS)',
  },
  { flags: '-H, --header <header>', key: 'headers', kind: 'header', description: '"Name: value" request header' },
  { flags: '--wait-for <ms>', key: 'waitFor', kind: 'number', description: 'wait before capturing the page' },
  { flags: '--mobile', key: 'mobile', kind: 'boolean', description: 'emulate a mobile device' },
  { flags: '--timeout <ms>', key: 'timeout', kind: 'number', description: 'per-page timeout (default 30000)' },
  {
    flags: '--parsers <list>',
    key: 'parsers',
    kind: 'listOrJson',
    description: 'file parsers: names ("pdf,image"; "" for none), or JSON or @file.json for their options',
    example: `--parsers '[{"type":"pdf","maxPages":2}]'`,
  },
  {
    flags: '--actions <json>',
    key: 'actions',
    kind: 'json',
    description: 'browser actions as JSON or @file.json',
    example: `--actions '[{"type":"click","selector":"#more"}]'`,
  },
  { flags: '--country <code>', key: 'location.country', kind: 'string', description: 'location country (ISO code)' },
  { flags: '--languages <list>', key: 'location.languages', kind: 'list', description: 'location languages' },
  { flags: '--no-remove-base64-images', key: 'removeBase64Images', kind: 'boolean', description: 'keep data: images' },
  {
    flags: '--markdown-raw-html',
    key: 'markdownOptions.rawHtml',
    kind: 'boolean',
    description: 'write what markdown cannot express as sanitised HTML',
  },
  {
    flags: '--markdown-captions',
    key: 'markdownOptions.captions',
    kind: 'boolean',
    description: 'keep figure captions, each an italic line under its image',
  },
  {
    flags: '--markdown-embeds',
    key: 'markdownOptions.embeds',
    kind: 'boolean',
    description: 'write embedded frames, videos and audio as link lines',
  },
  { flags: '--no-block-ads', key: 'blockAds', kind: 'boolean', description: 'do not block ads and cookie banners' },
  { flags: '--proxy <mode>', key: 'proxy', kind: 'string', description: 'basic, stealth or auto' },
  { flags: '--no-store-in-cache', key: 'storeInCache', kind: 'boolean', description: 'do not cache the pages' },
  {
    flags: '--skip-tls-verification',
    key: 'skipTlsVerification',
    kind: 'boolean',
    description: 'skip TLS checks',
  },
  {
    flags: '--no-skip-tls-verification',
    key: 'skipTlsVerification',
    kind: 'boolean',
    description: 'verify TLS certificates',
  },
  { flags: '--zero-data-retention', key: 'zeroDataRetention', kind: 'boolean', description: 'keep nothing on disk' },
];

/** `record`, at the top level of every body (a crawl's too). */
const RECORD_FLAGS: BodyFlag[] = [
  {
    flags: '--record',
    key: 'record',
    kind: 'boolean',
    description: 'write every response to a WARC file (path printed at the end); `crawlkit replay` reads it',
  },
];

const JOB_FLAGS: BodyFlag[] = [
  { flags: '--max-concurrency <n>', key: 'maxConcurrency', kind: 'number', description: 'pages at once in this job' },
  {
    flags: '--webhook <url>',
    key: 'webhook',
    kind: 'string',
    description: 'POST job events to this URL (signed with env CRAWLKIT_WEBHOOK_SECRET)',
  },
];

const BATCH_FLAGS: BodyFlag[] = [
  {
    flags: '--ignore-invalid-urls',
    key: 'ignoreInvalidURLs',
    kind: 'boolean',
    description: 'skip invalid or refused URLs (listed on stderr) instead of refusing the batch',
  },
];

const CRAWLER_FLAGS: BodyFlag[] = [
  { flags: '--prompt <text>', key: 'prompt', kind: 'string', description: 'describe the crawl (needs an LLM)' },
  { flags: '--include-path <regex>', key: 'includePaths', kind: 'repeat', description: 'only paths matching' },
  { flags: '--exclude-path <regex>', key: 'excludePaths', kind: 'repeat', description: 'skip paths matching' },
  { flags: '--max-discovery-depth <n>', key: 'maxDiscoveryDepth', kind: 'number', description: 'link depth limit' },
  { flags: '--sitemap <mode>', key: 'sitemap', kind: 'string', description: 'include, skip or only' },
  {
    flags: '--ignore-query-parameters',
    key: 'ignoreQueryParameters',
    kind: 'boolean',
    description: 'one page per path',
  },
  { flags: '-l, --limit <n>', key: 'limit', kind: 'number', description: 'maximum pages (default 10000)' },
  {
    flags: '--crawl-entire-domain',
    key: 'crawlEntireDomain',
    kind: 'boolean',
    description: 'follow sibling and parent paths too',
  },
  { flags: '--allow-external-links', key: 'allowExternalLinks', kind: 'boolean', description: 'follow other sites' },
  { flags: '--allow-subdomains', key: 'allowSubdomains', kind: 'boolean', description: 'follow subdomains' },
  { flags: '--ignore-robots-txt', key: 'ignoreRobotsTxt', kind: 'boolean', description: 'do not obey robots.txt' },
  { flags: '--delay <seconds>', key: 'delay', kind: 'number', description: 'pause between pages' },
  { flags: '--regex-on-full-url', key: 'regexOnFullURL', kind: 'boolean', description: 'path regexes see the URL' },
  {
    flags: '--changes',
    key: 'changes',
    kind: 'boolean',
    description: 'compare with the last run of the same seed and options, and print the changes',
  },
  { flags: '--tag <name>', key: 'tag', kind: 'string', description: 'name the crawl lineage --changes compares in' },
  {
    flags: '--modified-since <date>',
    key: 'modifiedSince',
    kind: 'string',
    description: 'skip pages whose sitemap lastmod is older (ISO 8601)',
  },
];

const MAP_FLAGS: BodyFlag[] = [
  { flags: '--search <text>', key: 'search', kind: 'string', description: 'rank and filter URLs by these words' },
  { flags: '--sitemap <mode>', key: 'sitemap', kind: 'string', description: 'include, skip or only' },
  { flags: '--no-include-subdomains', key: 'includeSubdomains', kind: 'boolean', description: 'this host only' },
  {
    flags: '--no-ignore-query-parameters',
    key: 'ignoreQueryParameters',
    kind: 'boolean',
    description: 'keep query strings',
  },
  { flags: '-l, --limit <n>', key: 'limit', kind: 'number', description: 'maximum URLs (default 5000)' },
  // The crawl's path patterns, which map applies to the links it lists.
  ...CRAWLER_FLAGS.filter((f) => ['includePaths', 'excludePaths', 'regexOnFullURL'].includes(f.key)),
  { flags: '--timeout <ms>', key: 'timeout', kind: 'number', description: 'give up after this long' },
  { flags: '--country <code>', key: 'location.country', kind: 'string', description: 'location country (ISO code)' },
  { flags: '-H, --header <header>', key: 'headers', kind: 'header', description: '"Name: value" request header' },
];

/** The flags of each command whose body they build, and where the scrape options go. */
export const BODY_FLAGS = {
  scrape: { flags: SCRAPE_FLAGS, scrapeOptionsKey: undefined },
  recordedScrape: { flags: [...SCRAPE_FLAGS, ...RECORD_FLAGS], scrapeOptionsKey: undefined },
  batch: { flags: [...SCRAPE_FLAGS, ...JOB_FLAGS, ...BATCH_FLAGS, ...RECORD_FLAGS], scrapeOptionsKey: undefined },
  crawl: {
    flags: [...CRAWLER_FLAGS, ...JOB_FLAGS, ...SCRAPE_FLAGS, ...RECORD_FLAGS],
    scrapeOptionsKey: 'scrapeOptions',
  },
  map: { flags: MAP_FLAGS, scrapeOptionsKey: undefined },
} as const satisfies Record<string, { flags: BodyFlag[]; scrapeOptionsKey: string | undefined }>;

export type BodyCommand = keyof typeof BODY_FLAGS;

const SCRAPE_KEYS = new Set(SCRAPE_FLAGS.map((f) => f.key.split('.')[0]!));

/** Declares a command's body flags plus `--body`. */
export function addBodyFlags(command: Command, name: BodyCommand): Command {
  for (const flag of BODY_FLAGS[name].flags) {
    const option = new Option(flag.flags, flag.description);
    if (flag.kind === 'repeat' || flag.kind === 'header') {
      option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
    }
    command.addOption(option);
  }
  if (takesScrapeOptions(name)) {
    for (const flag of [...FORMAT_OBJECT_FLAGS, PDF_MAX_PAGES_FLAG]) command.option(flag.flags, flag.description);
  }
  command.option('--body <file>', 'a whole v2 request body as JSON (a file, or - for stdin); flags override it');
  return command;
}

function coerceNumber(text: string): number | string {
  return /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text;
}

function parseHeaders(values: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(':');
    if (colon <= 0) throw new CliError(`Expected --header as "Name: value", got "${value}"`);
    headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
  }
  return headers;
}

/** A comma-separated list's items, trimmed, empty ones left out. */
function listOf(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function convert(flag: BodyFlag, value: unknown): unknown {
  switch (flag.kind) {
    case 'number':
      return coerceNumber(String(value));
    case 'list':
      return listOf(String(value));
    case 'header':
      return parseHeaders(value as string[]);
    case 'json':
      return readJsonArgument(String(value), `--${flag.key}`, flag.example);
    case 'listOrJson': {
      const text = String(value).trim();
      if (!/^[[{@]/.test(text)) return listOf(text);
      const read = readJsonArgument(text, `--${flag.key}`, flag.example);
      return Array.isArray(read) ? read : [read];
    }
    default:
      return value;
  }
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    node[part] = typeof next === 'object' && next !== null && !Array.isArray(next) ? { ...next } : {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts.at(-1)!] = value;
}

/**
 * Builds the v2 body of a command: the `--body` object (if any) with every flag given on the command line set on
 * top. Values are not validated here: the API validates the body and its messages are the CLI's.
 */
export function buildBody(
  command: Command,
  name: BodyCommand,
  base: Record<string, unknown>,
  fixed: Record<string, unknown>,
): Record<string, unknown> {
  const body: Record<string, unknown> = { ...base };
  const { flags, scrapeOptionsKey } = BODY_FLAGS[name];
  const values = command.opts<Record<string, unknown>>();
  for (const flag of flags) {
    const attribute = new Option(flag.flags).attributeName();
    if (command.getOptionValueSource(attribute) !== 'cli') continue;
    const target =
      scrapeOptionsKey && SCRAPE_KEYS.has(flag.key.split('.')[0]!) && flag.key !== 'zeroDataRetention'
        ? `${scrapeOptionsKey}.${flag.key}`
        : flag.key;
    setPath(body, target, convert(flag, values[attribute]));
  }
  if (takesScrapeOptions(name)) {
    const formats = withFormatObjectFlags(command, formatsOf(body, scrapeOptionsKey));
    if (formats) setPath(body, scrapeOptionsKey ? `${scrapeOptionsKey}.formats` : 'formats', formats);
    if (command.getOptionValueSource('pdfMaxPages') === 'cli') {
      const key = scrapeOptionsKey ? `${scrapeOptionsKey}.parsers` : 'parsers';
      const holder = (scrapeOptionsKey ? body[scrapeOptionsKey] : body) as Record<string, unknown> | undefined;
      const maxPages = pdfMaxPagesValue(String(command.opts<Record<string, unknown>>()['pdfMaxPages']));
      setPath(body, key, withPdfMaxPages(holder?.['parsers'], ['pdf'], maxPages));
    }
  }
  return { ...body, ...fixed };
}

function takesScrapeOptions(name: BodyCommand): boolean {
  return (BODY_FLAGS[name].flags as readonly BodyFlag[]).includes(SCRAPE_FLAGS[0]!);
}

/** A copy of the body's formats (or its `scrapeOptions`' formats), `[]` when it has none. */
function formatsOf(body: Record<string, unknown>, scrapeOptionsKey: string | undefined): unknown[] {
  const holder = (scrapeOptionsKey ? body[scrapeOptionsKey] : body) as Record<string, unknown> | undefined;
  return Array.isArray(holder?.['formats']) ? [...(holder['formats'] as unknown[])] : [];
}

/**
 * `buildBody` for a command about one URL (`scrape`, `crawl`, `map`): the URL is its argument, or the `url` of its
 * `--body`. Without either the command stops with a usage error, before any engine starts.
 */
export function buildUrlBody(
  command: Command,
  name: BodyCommand,
  base: Record<string, unknown>,
  url: string | undefined,
): Record<string, unknown> {
  if (url !== undefined && isLocalFile(url)) {
    throw new CliError(
      `"${url}" is a local file, not a URL: \`crawlkit parse ${url}\` converts it ` +
        '(for a web page of that name, write its URL with http:// or https://)',
    );
  }
  const body = buildBody(command, name, base, url !== undefined ? { url } : {});
  if (body['url'] === undefined) {
    throw new CliError(`missing URL: crawlkit ${command.name()} <url>, or a --body whose JSON has a "url"`);
  }
  return body;
}
