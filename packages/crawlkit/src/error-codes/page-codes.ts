import { info, type ErrorCodeInfo } from './error-code-info.js';

/** The codes of a page's scrape (fetch, decode, documents, extraction) and of search. */
export const PAGE_CODES = {
  // Scrape
  SCRAPE_TIMEOUT: info(
    408,
    'The page did not finish within `timeout` (else `timeoutMs`): fetch, actions and extraction together, and for a ' +
      'crawl or batch page every attempt of it with the back-off between (its time starts once it has its slots). ' +
      'The message says the stage it was in, and for a page retried its attempts and what the last one met.',
    'Raise `timeout`, lower `waitFor`, or use fewer actions.',
  ),
  MAP_TIMEOUT: info(408, 'The map did not finish within its `timeout`.', 'Raise `timeout` or lower `limit`.'),
  // Search
  SEARCH_TIMEOUT: info(
    408,
    'The search (its provider and the scrapes of `scrapeOptions`) did not finish within its `timeout`.',
    'Raise `timeout`, lower `limit`, or search without `scrapeOptions`.',
  ),
  SEARCH_PROVIDER_FAILED: info(
    502,
    'The web search provider (SearXNG, Brave) could not be reached, refused the request or answered something else than its JSON.',
    'Check the provider configured (`--searxng-url`, `--brave-api-key`); a SearXNG instance must list `json` in `search.formats`.',
  ),
  SCRAPE_NO_CACHED_DATA: info(
    404,
    '`minAge` asked for a cached page and the cache holds none that old, or cannot answer at all (the replay engine, or options that never read it: the message names them).',
    'Scrape without `minAge` first, or lower it; or drop the options named.',
  ),
  SCRAPE_LOCKDOWN_CACHE_MISS: info(
    404,
    '`lockdown` serves pages from the page cache only, with no network, and the cache holds no copy of this page for these options (the message names the options of the copies it holds of the page, header values aside).',
    'Scrape the page once without `lockdown` (with `storeInCache`), or drop `lockdown`.',
  ),
  SCRAPE_REPLAY_NOT_RECORDED: info(
    404,
    "`engine: 'replay'` serves pages from WARC recordings only, with no network, and none of them holds a response for this URL.",
    'Record a job that fetches the URL (`record: true`), or add the WARC file that holds it to `replay.files`.',
  ),
  REPLAY_FILE_UNREADABLE: info(
    400,
    'A recording given to `replay.files` (or `crawlkit replay`) cannot be read: missing, or not a WARC file.',
    'Give the path of a WARC file (.warc or .warc.gz), such as the `warcFile` a job recorded with `record: true`.',
  ),
  SCRAPE_DNS_RESOLUTION_ERROR: info(
    200,
    'The host name does not resolve. Like upstream, HTTP 200 with `success: false`.',
    'Check the domain.',
  ),
  SCRAPE_SSL_ERROR: info(
    500,
    'The TLS handshake or the certificate failed.',
    'Fix the certificate, or set `skipTlsVerification: true` when no sensitive data is sent.',
  ),
  SCRAPE_CONNECTION_ERROR: info(
    500,
    "The connection was refused, reset or closed before a complete response (a crawl or batch retries a reset or closed one up to 3 times within the page's `timeout`: its message then ends 'after N attempts over N s'; a page whose `timeout` leaves no time for the next attempt is `SCRAPE_TIMEOUT`).",
    'Check that the site is up; retry later.',
  ),
  SCRAPE_PROXY_ERROR: info(
    502,
    'The proxy of the fetch (`proxies`, `PROXY_SERVER`) could not be reached, refused its credentials (407) or the site; the message names the proxy and which.',
    'Check the proxy address, that it runs, its credentials (`PROXY_USERNAME`, `PROXY_PASSWORD`), and that it allows the site.',
  ),
  SCRAPE_INVALID_RESPONSE: info(500, 'The server answered with something that is not valid HTTP.', 'Retry later.'),
  SCRAPE_INVALID_URL: info(400, 'The URL does not parse.', 'Send an absolute http(s) URL.'),
  SCRAPE_UNSUPPORTED_PROTOCOL: info(
    400,
    'The URL given has a scheme other than http: and https: (file:, data:, javascript:, ftp:, …); a page that redirects to one is `SCRAPE_UNSUPPORTED_REDIRECT`.',
    'Send an http(s) URL.',
  ),
  SCRAPE_UNSUPPORTED_REDIRECT: info(
    500,
    'The page redirected to a URL of a scheme other than http: and https: (ftp:, a `mailto:`, an app link, …); the message names the page and where it led.',
    'Nothing on your side: the site sends its visitors there. Fetch that URL with a tool of its scheme, or scrape another page.',
  ),
  SCRAPE_INVALID_REQUEST: info(
    400,
    'The fetcher cannot send the request as given (an unknown country or engine, a timeout out of range, or what the HTTP client refuses). Headers HTTP cannot carry are refused before, as `BAD_REQUEST`.',
    'Fix the option the message names.',
  ),
  SCRAPE_RESPONSE_TOO_LARGE: info(
    500,
    "The body or the headers went past `http.limits` (`maxBodyBytes`, `maxDecompressedBytes`, header size), or a page's scripts built a document longer than `maxBodyBytes`.",
    'Raise the limit under `http.limits` if the page is legitimate (`--max-body-bytes`, `http` in `crawlkit.config.json`).',
  ),
  SCRAPE_DECOMPRESSION_BOMB: info(
    500,
    'The decoded body grew faster than `http.limits.maxCompressionRatio` allows.',
    'Raise `maxCompressionRatio` if the page is legitimate.',
  ),
  SCRAPE_DECODING_ERROR: info(
    500,
    'The body is not valid data of its `content-encoding` (corrupt gzip, brotli, …).',
    'Nothing on your side: the server sends a broken body.',
  ),
  SCRAPE_TOO_MANY_REDIRECTS: info(
    500,
    'A redirect chain went on to new URLs past `http.limits.maxRedirects` (in the browser too, which follows 19 at most: the limit of Chromium).',
    'Scrape the final URL, or raise `maxRedirects`.',
  ),
  SCRAPE_REDIRECT_LOOP: info(
    500,
    'A redirect led back to a URL of the same chain (either engine; the browser tells it once Chromium gives up).',
    'Nothing: the site loops.',
  ),
  SCRAPE_SITE_ERROR: info(
    500,
    "The page failed to load in the browser (the message carries the browser's error).",
    'Check the URL in a browser; retry later.',
  ),
  SCRAPE_DOWNLOAD: info(
    500,
    'The browser was answered with a download instead of a page (fetched again over HTTP internally).',
    'Nothing: the page is fetched over HTTP instead.',
  ),
  SCRAPE_ACTION_ERROR: info(
    500,
    'An action failed on the page (the message names its index, type and selector; `details` keeps the results ' +
      "gathered before it, the page's `url` and a `screenshot` of it; a job page's stored error keeps none).",
    'Fix the action: a selector that matches, a longer `wait`, valid JavaScript.',
  ),
  SCRAPE_UNSUPPORTED_FILE_ERROR: info(
    500,
    'The URL answered with binary content crawlkit does not convert (not HTML, text, JSON, XML, PDF or a document ' +
      'format), or an image without the `image` parser.',
    "Add `'image'` to `parsers` for an image; nothing to extract from other files.",
  ),
  SCRAPE_PDF_PARSE_ERROR: info(500, 'The PDF could not be parsed.', 'Use `parsers: []` to get the file as base64.'),
  SCRAPE_PDF_TOO_LARGE: info(
    500,
    'The PDF decompresses to more than 100 MiB before its first page can be read.',
    'Use `parsers: []` to get the file as base64.',
  ),
  SCRAPE_DOCUMENT_PARSE_ERROR: info(
    500,
    'The document (Word, Excel, PowerPoint, OpenDocument, RTF, EPUB, CSV) could not be read: damaged, served as a ' +
      'type its bytes are not, or a format not converted (`.xls`, `.ppt`; the message says which).',
    'Check the file opens in its application; save a legacy `.xls` as `.xlsx`, `.ods` or `.csv`, a `.ppt` as `.pptx`.',
  ),
  SCRAPE_DOCUMENT_ENCRYPTED: info(
    500,
    'The file is protected by a password that it needs to be opened (its content is encrypted): a PDF with a user ' +
      'password, a Word, Excel, PowerPoint or OpenDocument file saved with one, or an EPUB whose chapters are ' +
      'enciphered (DRM; obfuscated fonts alone are read). A PDF with an owner password only ' +
      '(printing or copying forbidden) opens and is read.',
    'Save a copy without the password (or route such files to whoever holds it); crawlkit opens no protected file.',
  ),
  SCRAPE_DOCUMENT_TOO_LARGE: info(
    500,
    'The document passes a cap: more than 10,000 zip entries, 200 MiB once inflated or 100 times its size (a zip ' +
      'bomb), 1,000,000 XML elements, 500,000 spreadsheet cells, or 2,000 EPUB spine entries (a looping spine).',
    'Nothing, for a hostile file; split a legitimate one.',
  ),
  SCRAPE_DOCUMENT_XML_ENTITIES: info(
    500,
    'An XML part of the document declares entities (`<!ENTITY`): entity expansion and external entities are refused.',
    'Nothing: office writers never emit them; re-save the file in its application.',
  ),
  SCRAPE_DOCUMENT_TIMEOUT: info(
    408,
    'Converting the document, reading a PDF (a damaged one pdf.js rebuilds), or reading an image by OCR, took longer than the extraction budget (`extractionBudgetMs`, 10 s by default).',
    "Raise the engine option `extractionBudgetMs` (the request's `timeout` too, if it is shorter).",
  ),
  SCRAPE_DOCUMENT_READER_MISSING: info(
    501,
    'A Word, Excel, PowerPoint, OpenDocument, RTF or EPUB document needs the officeparser package, an optional dependency not installed (or installed after the process started).',
    'Install it beside crawlkit: `npm install officeparser@^8.1.1`, then restart a `serve` or `mcp` that was running.',
  ),
  SCRAPE_OCR_FAILED: info(
    500,
    'OCR could not read the image or PDF page (an image Tesseract cannot decode, or a page pdf.js cannot render).',
    'Use `parsers: [{ type: "pdf", mode: "fast" }]` for the text layer alone, or convert the image to PNG.',
  ),
  SCRAPE_OCR_DATA_MISSING: info(
    501,
    "OCR (an image, or a PDF with `mode: 'ocr'`) needs its English language data, the @tesseract.js-data/eng package " +
      "(a dependency of @crawlkit/documents), and it is not installed. In `mode: 'auto'` the PDF's text layer is " +
      'returned instead, with a warning.',
    'Install it beside crawlkit: `npm install @tesseract.js-data/eng@^1.0.0` (or restore it in a deployment that left it out).',
  ),
  SCRAPE_BRANDING_NOT_SUPPORTED: info(
    500,
    'The `branding` format needs a browser and none could be started.',
    'Install Chromium or set `browser.executablePath` (the message says how).',
  ),
  SCRAPE_PAGE_TOO_COMPLEX: info(
    500,
    'Extracting the page needed more memory than `workers.maxMemoryMb`, or nesting too deep to build.',
    'Raise `workers.maxMemoryMb` if the page is legitimate.',
  ),
  SCRAPE_EXTRACTION_FAILED: info(
    500,
    'The worker thread extracting the page died, and again in a fresh one; or the worker threads could not load their module, at start or later (the message says so).',
    'Retry; report it if it repeats. Workers that cannot load: reinstall crawlkit, or keep it out of a bundle.',
  ),
  MARKDOWN_BUDGET_EXCEEDED: info(
    500,
    '`htmlToMarkdown` passed its `deadline` (a scrape never answers it: it falls back to plain text).',
    'Catch it when you call `htmlToMarkdown` with a `deadline`.',
  ),
} as const satisfies Record<string, ErrorCodeInfo>;
