import { connectionMessage, dnsErrorMessage, FetchError } from '../errors.js';
import { hostPortOf, proxyConnectFailure, proxyConnectionMessage } from '../proxy-errors.js';
import { connectionGaveUp } from './navigation-errors.js';

/** proxy-chain's statuses for a plain request whose connection to the upstream proxy failed, as their error codes. */
const UPSTREAM_CONNECT_STATUS: Record<number, string> = { 593: 'ENOTFOUND', 594: 'ECONNREFUSED' };

/**
 * proxy-chain's statuses for a connection dropped after it was made (its `errorCodeToStatusCode`), in the HTTP
 * engine's words for the same error code.
 */
const DROPPED_STATUS: Record<number, { what: string; code: string }> = {
  595: { what: 'reset', code: 'ECONNRESET' },
  596: { what: 'closed while the request was being sent', code: 'EPIPE' },
};

/** What gave up on a connection of the gate's, as `connectionGaveUp` names it. */
export function gateConnectLimit(ms: number): string {
  return `crawlkit's time-out for opening a connection (connectTimeoutMs, ${ms} ms)`;
}

/**
 * The failure behind a status proxy-chain answered a plain request for `url` with itself (`status` >= 400, the
 * target or the upstream proxy failed): 593 its name did not resolve, 504 no connection within `connectMs` (the
 * gate's connect limit; the system's, if that one is longer), 594 refused, 595 reset, 596 a broken pipe (through a
 * proxy, said as the proxy connection's), the rest (599: proxy-chain knew no cause) a failed connection by number.
 */
export function gatewayFailure(
  status: number,
  url: string,
  upstream: string | undefined,
  connectMs: number,
): FetchError {
  const upstreamCode = upstream === undefined ? undefined : UPSTREAM_CONNECT_STATUS[status];
  if (upstreamCode) return proxyConnectFailure(upstream!, upstreamCode, new URL(upstream!).hostname, url)!;
  if (status === 593) return new FetchError('SCRAPE_DNS_RESOLUTION_ERROR', dnsErrorMessage(hostOf(url)), { url });
  if (status === 504) {
    const target = upstream ? `the proxy at ${hostPortOf(upstream)}` : hostPortOf(url);
    return connectionGaveUp(url, target, gateConnectLimit(connectMs));
  }
  // Refused: said as the HTTP engine says it, not as proxy-chain's status number.
  if (status === 594) {
    return new FetchError('SCRAPE_CONNECTION_ERROR', connectionMessage(hostPortOf(url), 'refused', 'ECONNREFUSED'), {
      url,
    });
  }
  const dropped = DROPPED_STATUS[status];
  if (dropped) {
    const message = upstream
      ? proxyConnectionMessage(upstream, `${dropped.what} (${dropped.code}).`)
      : connectionMessage(hostPortOf(url), dropped.what, dropped.code);
    return new FetchError('SCRAPE_CONNECTION_ERROR', message, { url, dropped: true });
  }
  return new FetchError('SCRAPE_CONNECTION_ERROR', `Could not connect to ${url} (${status}).`, { url });
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}
