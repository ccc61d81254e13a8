import { connectionMessage, FetchError, dnsErrorMessage, isFetchError, type FetchErrorCode } from '../errors.js';
import { CONNECTION_CODES, DNS_CODES, NEVER_CONNECTED_CODES } from '../net-codes.js';
import { proxyConnectFailure, proxyConnectionMessage, proxyName, proxyStatusError } from '../proxy-errors.js';
import { sslError } from '../tls-errors.js';
import { tooLargeMessage } from './read-body.js';
import type { HttpLimits } from './types.js';

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_|ERR_OSSL_|HOSTNAME_MISMATCH)/;

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  name?: unknown;
  hostname?: unknown;
  cause?: unknown;
}

/** The error and its causes, outermost first (bounded, in case of a cycle). */
function chain(error: unknown): ErrorLike[] {
  const out: ErrorLike[] = [];
  let current: unknown = error;
  while (typeof current === 'object' && current !== null && out.length < 8) {
    out.push(current);
    current = (current as ErrorLike).cause;
  }
  return out;
}

function withUrl(error: FetchError, url: string): FetchError {
  if (error.url !== undefined) return error;
  return new FetchError(error.code, error.message, {
    url,
    ...(error.rule !== undefined ? { rule: error.rule } : {}),
    ...(error.dropped ? { dropped: true } : {}),
    ...(error.cause !== undefined ? { cause: error.cause } : {}),
  });
}

/**
 * Turns anything undici, net, tls or dns threw into a `FetchError` with a stable code. Through `proxy`, a failure
 * to connect (refused, unresolved, unreachable) is the proxy's own, as is a status it answered the tunnel with.
 */
export function toFetchError(error: unknown, url: URL, limits: HttpLimits, proxy: string | undefined): FetchError {
  const href = url.href;
  const links = chain(error);
  for (const link of links) if (isFetchError(link)) return withUrl(link, href);

  const make = (code: FetchErrorCode, message: string) => new FetchError(code, message, { url: href, cause: error });
  for (const link of links) {
    const code = typeof link.code === 'string' ? link.code : '';
    const message = typeof link.message === 'string' ? link.message : '';
    if (proxy !== undefined) {
      const failure = proxyFailure(proxy, link, url);
      if (failure) return new FetchError(failure.code, failure.message, { url: href, cause: error });
    }
    if (DNS_CODES.has(code)) {
      return make(
        'SCRAPE_DNS_RESOLUTION_ERROR',
        dnsErrorMessage(typeof link.hostname === 'string' ? link.hostname : url.hostname),
      );
    }
    if (TLS_CODE.test(code) || (code === 'EPROTO' && /ssl|tls/i.test(message)))
      return sslError(code, 'http', href, error, link);
    switch (code) {
      case 'UND_ERR_CONNECT_TIMEOUT':
      case 'ETIMEDOUT':
        return make(
          'SCRAPE_TIMEOUT',
          `Scrape timed out: no connection to ${url.host}${proxy ? ` through the proxy ${proxyName(proxy)}` : ''} within ${limits.connectTimeoutMs} ms.`,
        );
      case 'UND_ERR_HEADERS_TIMEOUT':
        return make('SCRAPE_TIMEOUT', `Scrape timed out: no response headers within ${limits.headersTimeoutMs} ms.`);
      case 'UND_ERR_BODY_TIMEOUT':
        return make('SCRAPE_TIMEOUT', `Scrape timed out: the response body stalled for ${limits.idleTimeoutMs} ms.`);
      case 'UND_ERR_HEADERS_OVERFLOW':
        return make(
          'SCRAPE_RESPONSE_TOO_LARGE',
          tooLargeMessage('header block', limits.maxHeaderBytes, 'maxHeaderBytes'),
        );
      case 'UND_ERR_INVALID_ARG':
      case 'UND_ERR_NOT_SUPPORTED':
      case 'ERR_INVALID_ARG_TYPE':
      case 'ERR_INVALID_ARG_VALUE':
      case 'ERR_INVALID_CHAR':
      case 'ERR_INVALID_HTTP_TOKEN':
        return make('SCRAPE_INVALID_REQUEST', `Invalid request: ${message}`);
      case 'UND_ERR_ABORTED':
      case 'ABORT_ERR':
        return make('ABORTED', 'The request was aborted.');
    }
    if (code.startsWith('HPE_') || link.name === 'HTTPParserError' || code === 'UND_ERR_INFO') {
      return make('SCRAPE_INVALID_RESPONSE', `The server sent an invalid HTTP response: ${message}`);
    }
    if (CONNECTION_CODES.has(code)) {
      const dropped = !NEVER_CONNECTED_CODES.has(code);
      const what =
        code === 'ECONNREFUSED'
          ? 'refused'
          : code === 'ECONNRESET'
            ? 'reset'
            : dropped
              ? 'closed by the server before a complete response'
              : 'failed';
      const text = connectionMessage(url.host, what, message);
      return new FetchError('SCRAPE_CONNECTION_ERROR', text, { url: href, cause: error, dropped });
    }
  }
  const first = links[0];
  const message = typeof first?.message === 'string' ? first.message : String(error);
  if (proxy) return make('SCRAPE_CONNECTION_ERROR', proxyConnectionMessage(proxy, message));
  return make('SCRAPE_CONNECTION_ERROR', `Request to ${url.host} failed: ${message}`);
}

/** The proxy's own failure in `link`: the status it answered the tunnel with, or no connection to it at all. */
function proxyFailure(proxy: string, link: ErrorLike, url: URL): FetchError | undefined {
  const code = typeof link.code === 'string' ? link.code : '';
  const message = typeof link.message === 'string' ? link.message : '';
  const status = /Proxy response \((\d+)\)/.exec(message)?.[1];
  if (status) {
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    return proxyStatusError(proxy, Number(status), `${url.hostname}:${port}`, url.href);
  }
  return proxyConnectFailure(proxy, code, typeof link.hostname === 'string' ? link.hostname : undefined, url.href);
}
