import { FetchError, isFetchError } from '../errors.js';
import { describeBody } from '../http/body-text.js';
import { parseContentType } from '../http/content-type.js';
import { checkRedirectTarget } from '../http/redirects.js';
import type { FetchResult, HttpRequest } from '../http/types.js';
import type { PageResult } from '../page.js';
import { checkUrlAgainstPolicy, redactUrl, tightenUrlPolicy, type UrlPolicy } from '../policy/url-policy.js';
import type { RenderVerdict } from '../render/judge.js';
import { isBrowserError } from '../browser/errors.js';
import { browserReasonForOptions } from '../engine-choice.js';
import { isBrowserUnavailable } from '../engines/auto-engine.js';
import type { BuiltinEngines, EngineCall, PageEngine } from '../engines/page-engine.js';
import type { RecordedSource } from './exchange.js';
import { urlKey } from '../url-fragment.js';
import { indexWarc, supersedes, type IndexedResponse, type WarcFileIndex } from './warc-index.js';
import { readResponse, type RecordedResponse } from './warc-read.js';

/** Settings of a `ReplayEngine`. */
export interface ReplayEngineOptions {
  /** The WARC files (`.warc` or `.warc.gz`) to serve from; for a URL in several, the first file wins. */
  files: readonly string[];
  /**
   * Which URLs may be served: a recorded URL the policy refuses is `URL_BLOCKED`, as it would be live. The policy of
   * the fetcher that calls the engine applies as well.
   * @default {} (everything allowed)
   */
  urlPolicy?: UrlPolicy;
  /**
   * Largest record served, in bytes on disk; a larger one is `SCRAPE_RESPONSE_TOO_LARGE`.
   * @default 104857600 (100 MiB)
   */
  maxRecordBytes?: number;
  /**
   * Recorded redirects followed before `SCRAPE_TOO_MANY_REDIRECTS`.
   * @default 20
   */
  maxRedirects?: number;
  /** Told once per file that ends inside a record (the records before the cut are served). */
  onTruncated?: (file: string, message: string) => void;
  /** Told once per gzip file with damaged records (skipped to the next readable record, whose records are served). */
  onDamaged?: (file: string, message: string) => void;
}

/** What the replay engine serves from: every file's index, merged. */
export interface ReplayIndex {
  files: readonly WarcFileIndex[];
  /** Responses by URL key, across files (the first file that holds a URL wins). */
  responses: ReadonlyMap<string, IndexedResponse>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Serves every fetch from recorded WARC files, with no network: not a socket is opened to a site, for pages (`fetch`)
 * or for robots.txt and sitemaps (`fetchPlain`). The files are indexed on first use, by streaming them. Recorded
 * redirects are followed; a URL not recorded is `SCRAPE_REPLAY_NOT_RECORDED`. Given a fetcher's browser (`bind`), a
 * page the browser recorded is rendered again in it, each of its requests answered from the recordings.
 */
export class ReplayEngine implements PageEngine {
  readonly name = 'replay';
  readonly #options: ReplayEngineOptions;
  #index: Promise<ReplayIndex> | undefined;
  #browser: PageEngine | undefined;

  constructor(options: ReplayEngineOptions) {
    this.#options = options;
  }

  /** Whether it can render (a fetcher gave it its browser): pages recorded by the browser are replayed in it. */
  get renders(): boolean {
    return this.#browser !== undefined;
  }

  /** Takes the first fetcher's browser, to replay in it the pages the browser recorded. */
  bind(engines: BuiltinEngines): void {
    this.#browser ??= engines.browser;
  }

  /** The merged index of the files, built on first call (every later call shares it). */
  index(): Promise<ReplayIndex> {
    this.#index ??= buildIndex(this.#options);
    return this.#index;
  }

  /**
   * A page from the recordings: rendered in the browser (every request it makes answered from the recordings) when
   * the browser recorded it or an option needs the browser, else served as recorded, like an HTTP fetch.
   */
  async fetch<V extends RenderVerdict>(call: EngineCall<V>): Promise<PageResult<V>> {
    const { request } = call;
    const policy = this.#policy(call.urlPolicy);
    if (this.#browser && (await this.#rendered(request))) {
      const serve: RecordedSource = async (url) => (await this.#read(checkUrlAgainstPolicy(url, policy))).recorded;
      try {
        return await this.#browser.fetch({ ...call, serve, urlPolicy: policy });
      } catch (error) {
        // A recorded download, or no browser here: the recording as it is, like an HTTP fetch.
        if (!isBrowserError(error) || (error.code !== 'SCRAPE_DOWNLOAD' && !isBrowserUnavailable(error))) throw error;
      }
    }
    const plain = { url: request.url, deferDecoding: request.deferDecoding ?? false };
    const result = await this.fetchPlain(plain, policy);
    return { ...result, engineReason: call.reason, proxyUsed: 'basic' };
  }

  /** A plain request (robots.txt, a sitemap) answered from the recordings, recorded redirects followed. */
  async fetchPlain(request: HttpRequest, urlPolicy?: Readonly<UrlPolicy>): Promise<FetchResult> {
    const startedAt = Date.now();
    const start = performance.now();
    const policy = this.#policy(urlPolicy);
    const maxRedirects = this.#options.maxRedirects ?? 20;
    const redirects: string[] = [];
    let url = checkUrlAgainstPolicy(request.url, policy);
    for (;;) {
      const { recorded } = await this.#read(url);
      const location = recorded.headers.location;
      if (REDIRECTS.has(recorded.status) && location) {
        redirects.push(redactUrl(url));
        if (redirects.length > maxRedirects) {
          throw new FetchError('SCRAPE_TOO_MANY_REDIRECTS', `Too many redirects (more than ${maxRedirects}).`, {
            url: redactUrl(url),
          });
        }
        url = checkRedirectTarget(new URL(location, url), url, policy);
        continue;
      }
      const { type, charset } = parseContentType(recorded.headers['content-type']);
      const result: FetchResult = {
        url: redactUrl(url),
        status: recorded.status,
        headers: recorded.headers,
        contentType: type,
        body: recorded.body,
        redirects,
        engine: 'http',
        timings: { startedAt, ttfbMs: 0, totalMs: Math.round(performance.now() - start) },
      };
      if (recorded.decoded) describeBody(result, charset, request.deferDecoding ?? false);
      return result;
    }
  }

  /** Nothing to free: files are opened per read, and the browser is the fetcher's. */
  async close(): Promise<void> {}

  #policy(given: Readonly<UrlPolicy> | undefined): UrlPolicy {
    const own = this.#options.urlPolicy;
    return own && given ? tightenUrlPolicy(own, given) : { ...(given ?? own ?? {}) };
  }

  /** Whether the page is replayed in the browser: it was recorded there, or an option only the browser honours. */
  async #rendered(request: EngineCall['request']): Promise<boolean> {
    if (browserReasonForOptions(request)) return true;
    try {
      return (await this.index()).responses.get(urlKey(request.url))?.engine === 'browser';
    } catch {
      return false;
    }
  }

  /** The recorded response of `url` (one record: redirects are the caller's to follow). */
  async #read(url: URL): Promise<{ where: IndexedResponse; recorded: RecordedResponse }> {
    const index = await this.index();
    const where = index.responses.get(urlKey(url.href));
    if (!where) throw notRecorded(url, index);
    const maxBytes = this.#options.maxRecordBytes ?? 100 * 1024 * 1024;
    if (where.length > maxBytes) {
      throw new FetchError(
        'SCRAPE_RESPONSE_TOO_LARGE',
        `The recorded response (${where.length} bytes) exceeds the limit of ${maxBytes} bytes.`,
        { url: redactUrl(url) },
      );
    }
    const recorded = await readResponse(where).catch((error: unknown) => {
      throw unreadable(where.file, error);
    });
    if (!recorded) throw unreadable(where.file, new Error(`no response record at offset ${where.offset}`));
    return { where, recorded };
  }
}

async function buildIndex(options: ReplayEngineOptions): Promise<ReplayIndex> {
  if (!options.files.length) {
    throw new FetchError('REPLAY_FILE_UNREADABLE', 'The replay engine needs at least one WARC file in `files`.');
  }
  const files: WarcFileIndex[] = [];
  const responses = new Map<string, IndexedResponse>();
  for (const file of options.files) {
    const index = await indexWarc(file).catch((error: unknown) => {
      throw isFetchError(error) ? error : unreadable(file, error);
    });
    files.push(index);
    for (const [key, where] of index.responses) if (supersedes(responses.get(key), where)) responses.set(key, where);
    if (index.truncatedAt !== undefined) options.onTruncated?.(file, truncationMessage(index));
    if (index.damaged.length > 0) options.onDamaged?.(file, damageMessage(index));
  }
  return { files, responses };
}

/** What a truncated recording is told as: where it ends and what is served. */
export function truncationMessage(index: WarcFileIndex): string {
  return (
    `The recording ${index.file} ends inside a record (from byte ${index.truncatedAt}): the ` +
    `${index.responses.size} complete responses before it are served, the cut record and anything after it are ` +
    'missing. Record the job again for a complete file.'
  );
}

/** What a recording with damaged records is told as: where, and that the records after each are served. */
export function damageMessage(index: WarcFileIndex): string {
  const where = index.damaged.map(({ offset, length }) => `${length} bytes from byte ${offset}`).join(', ');
  return (
    `The recording ${index.file} has damaged records (${where}) that cannot be read: they are skipped, and the ` +
    `${index.responses.size} responses of the records around them are served. Record the job again, or restore ` +
    'the file from a copy, for the missing ones.'
  );
}

function notRecorded(url: URL, index: ReplayIndex): FetchError {
  const truncated = index.files.some((file) => file.truncatedAt !== undefined || file.damaged.length > 0);
  return new FetchError(
    'SCRAPE_REPLAY_NOT_RECORDED',
    `${redactUrl(url)} is not in the recording (${index.files.map((file) => file.file).join(', ')}): replay serves ` +
      `recorded responses only, with no network.${truncated ? ' A recording is truncated or damaged: it may have been lost there.' : ''} ` +
      'Record a job that fetches this URL (`record: true`), or add the WARC file that holds it.',
    { url: redactUrl(url) },
  );
}

function unreadable(file: string, cause: unknown): FetchError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new FetchError(
    'REPLAY_FILE_UNREADABLE',
    `The recording ${file} cannot be read (${reason}): give the path of a WARC file (.warc or .warc.gz).`,
    { cause },
  );
}
