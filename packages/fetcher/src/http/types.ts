import type { LookupFunction } from 'node:net';

import type { UrlPolicy } from '../policy/url-policy.js';
import type { ExchangeSink } from '../warc/exchange.js';

/** One HTTP request. */
export interface HttpRequest {
  /** Absolute http: or https: URL. Credentials in it (`http://user:pass@host/`) become a Basic `authorization`. */
  url: string;
  /**
   * `POST` is meant for webhook delivery. Redirects 301/302/303 turn a POST into a GET; 307/308 keep it.
   * @default 'GET'
   */
  method?: 'GET' | 'HEAD' | 'POST';
  /**
   * Request headers; they override the engine defaults (`user-agent`, `accept`, `accept-language`,
   * `accept-encoding`) case-insensitively. `authorization` and `cookie` are dropped when a redirect leaves the origin,
   * and every other one of these (`user-agent`, `accept`, `accept-language`, `content-type` aside) when it leaves the
   * host (`www.` aside), as the browser keeps them to the page's host.
   * @default {}
   */
  headers?: Record<string, string>;
  /**
   * Send the engine's browser-like default headers (`user-agent`, `accept`, `accept-language`, `accept-encoding`)
   * under `headers`. `false` sends `headers` alone, with what HTTP itself needs (`host`, `content-length`): a call
   * that is not a page fetch (a webhook delivery) asks for no language or encoding its receiver never offered.
   * @default true
   */
  defaultHeaders?: boolean;
  /**
   * Read at most this many bytes of the body (after decoding), then stop: the body is cut there and the result says
   * `truncated`, where a body past `maxBodyBytes` fails. A file with a size rule of its own (robots.txt: 500 KiB).
   * @default undefined (the whole body, within the limits)
   */
  readAtMost?: number;
  /** Request body (POST). */
  body?: string | Uint8Array;
  /**
   * Follow redirects. With `false`, a 3xx answer is the response, its `location` in `headers` (webhook delivery: a
   * redirected POST would arrive as a GET without its body, or carry the event's headers to another address).
   * @default true
   */
  followRedirects?: boolean;
  /**
   * Whole-request budget in milliseconds: DNS, connect, every redirect hop and the body.
   * @default 30000
   */
  timeoutMs?: number;
  /**
   * Accept any TLS certificate (self-signed, expired, wrong name), as v2 does by default.
   * @default true
   */
  skipTlsVerification?: boolean;
  /** Aborts the request with `ABORTED`. */
  signal?: AbortSignal;
  /**
   * Called once, synchronously, right before the first request leaves (the moment a host's spacing should count
   * from: a crawl's `delay` as the server sees it). It may abort `signal` (a job holding the request back): then
   * nothing is sent and the fetch fails with `ABORTED`.
   * @default undefined
   */
  onRequestStart?: () => void;
  /**
   * Called with each request the fetch sent and the response it got (every redirect hop, then the final response
   * with its decoded body), for recording (`record: true` writes them to a WARC file). It must not throw.
   * @default undefined
   */
  onExchange?: ExchangeSink;
  /**
   * Leave a textual body as bytes: `text` is then absent and `undecodedText` says how to decode it
   * (`decodeText(body, contentType, declaredCharset, contentLanguage)` of `undecodedText`), for a caller that decodes
   * it elsewhere, such as a worker thread. A page's text is a string as large as the page, which costs more to make and
   * to copy than its bytes.
   * @default false
   */
  deferDecoding?: boolean;
  /**
   * Proxy URL for this request (`http://user:pass@host:port`; https: proxies work too). The target is tunnelled
   * with CONNECT. When the URL policy refuses some addresses (`allowPrivateNetworks: false`, `blockedHosts`), the
   * target's name is resolved here and every address checked before it is handed to the proxy, on every redirect
   * hop; a name that does not resolve locally then fails with `SCRAPE_DNS_RESOLUTION_ERROR`. The proxy resolves the
   * name again on its own, so a proxy with another view of DNS is the operator's to trust.
   * @default undefined (direct)
   */
  proxy?: string;
}

/** A textual body left as bytes (`deferDecoding`): what `decodeText` needs beside the body and content type. */
export interface UndecodedText {
  /** The `charset` of the `content-type` header, if any. */
  declaredCharset?: string;
  /** The `content-language` header, if any: the page's language, for a page that declares no charset. */
  contentLanguage?: string;
}

/** What one request returned. A 404 or 500 is a result, not an error. */
export interface FetchResult {
  /** Final URL after redirects. */
  url: string;
  status: number;
  /** Response headers, names lower-cased; repeated headers joined with `, ` (`set-cookie` with `\n`). */
  headers: Record<string, string>;
  /** MIME type from `content-type`, lower-cased, without parameters; `''` when absent. */
  contentType: string;
  /**
   * WHATWG name of the encoding `text` was decoded with (`utf-8`, `windows-1252`, `shift_jis`, ...); for a page the
   * browser rendered, the one it read the document in. The queries of the page's links are in it.
   */
  charset?: string;
  /** The body with transfer and content encodings removed: the raw bytes of the resource. */
  body: Uint8Array;
  /** Decoded text when the content is textual (html, xml, json, javascript, text/*) and its bytes are not binary. */
  text?: string;
  /** Set instead of `text` when the request asked `deferDecoding`: `body` is text, in the charset declared here. */
  undecodedText?: UndecodedText;
  /**
   * Set when the declared type is textual (or absent) but the bytes are binary: the type sniffed from them
   * (`application/pdf`, `image/png`, ..., or `application/octet-stream`). `text` is then absent, so binary served
   * as `text/html` is never parsed as HTML.
   */
  sniffedContentType?: string;
  /** Set when the body was cut at the request's `readAtMost`: the rest was not read. */
  truncated?: true;
  /** Every URL visited before `url`, in order. */
  redirects: string[];
  engine: 'http' | 'browser';
  /** `startedAt` is epoch ms; `ttfbMs` is until the final response's headers; `totalMs` until the body ended. */
  timings?: { startedAt: number; ttfbMs: number; totalMs: number };
}

/** Resource limits of the HTTP engine. Every field has a default; see `DEFAULT_HTTP_LIMITS`. */
export interface HttpLimits {
  /**
   * Largest body accepted on the wire (before decompression), in bytes. Checked against `content-length` before
   * reading and while streaming.
   * @default 52428800 (50 MiB)
   */
  maxBodyBytes: number;
  /**
   * Largest body accepted after decompression, in bytes.
   * @default 104857600 (100 MiB)
   */
  maxDecompressedBytes: number;
  /**
   * Largest ratio of decompressed to compressed bytes, checked while streaming once the decompressed body passes
   * 1 MiB (small, very repetitive pages are legitimate). Stops gzip, deflate, brotli and zstd bombs early.
   * @default 200
   */
  maxCompressionRatio: number;
  /**
   * Redirects to new URLs followed before `SCRAPE_TOO_MANY_REDIRECTS` (the Fetch standard's limit); one back to a URL
   * of the chain is `SCRAPE_REDIRECT_LOOP` at once. The browser engine applies it too, up to Chromium's own limit (19
   * redirects).
   * @default 20
   */
  maxRedirects: number;
  /**
   * Time to establish a TCP (and TLS) connection, in milliseconds. The browser engine's network gate gives the
   * connections it opens (to a site, or to the upstream proxy) the same limit.
   * @default 10000
   */
  connectTimeoutMs: number;
  /**
   * Time from sending the request to receiving the complete response headers, in milliseconds.
   * @default 30000
   */
  headersTimeoutMs: number;
  /**
   * Longest pause between two body chunks, in milliseconds.
   * @default 15000
   */
  idleTimeoutMs: number;
  /**
   * Slowest body transfer tolerated, in bytes per second, averaged over `lowSpeedWindowMs`: a server that
   * trickles a byte a second is dropped with `SCRAPE_TIMEOUT` one to two windows after its body starts. 0 disables the
   * check.
   * @default 500
   */
  lowSpeedBytesPerSec: number;
  /**
   * Window of the low-speed check, in milliseconds.
   * @default 10000
   */
  lowSpeedWindowMs: number;
  /**
   * Largest response header block, in bytes.
   * @default 65536
   */
  maxHeaderBytes: number;
}

/** Settings of an `HttpEngine`. */
export interface HttpEngineOptions {
  /**
   * Which URLs and addresses may be fetched. Use `STRICT_URL_POLICY` for URLs that come from users.
   * @default {} (everything allowed)
   */
  urlPolicy?: UrlPolicy;
  /** Resource limits; missing fields keep their defaults (`DEFAULT_HTTP_LIMITS`). */
  limits?: Partial<HttpLimits>;
  /**
   * Default `user-agent` header; a request's own header wins.
   * @default 'Mozilla/5.0 (compatible; crawlkit/0.1)' (`DEFAULT_USER_AGENT`)
   */
  userAgent?: string;
  /**
   * A `dns.lookup`-compatible resolver (tests map names to 127.0.0.1 with it). Every address it returns is checked
   * against the URL policy before connecting.
   * @default dns.lookup
   */
  lookup?: LookupFunction;
  /**
   * Most sockets kept open per origin (keep-alive pool size).
   * @default unlimited
   */
  connections?: number;
}
