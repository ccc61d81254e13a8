import type { Exchange } from '../warc/exchange.js';
import { redactUrl } from '../policy/url-policy.js';
import type { Hop } from './redirects.js';

const NO_BODY = new Uint8Array(0);

/**
 * The exchange of one hop (`HttpRequest.onExchange`): a redirect has no body, the final response its body as received.
 */
export function exchangeOf(
  hop: Hop,
  status: number,
  headers: Record<string, string>,
  body: Uint8Array = NO_BODY,
  decoded = true,
): Exchange {
  return {
    url: redactUrl(hop.url),
    method: hop.method,
    requestHeaders: { ...hop.headers },
    status,
    headers,
    body,
    decoded,
    receivedAt: Date.now(),
    engine: 'http',
  };
}
