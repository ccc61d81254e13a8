/**
 * A keep-alive socket the server closed while it sat idle in the pool fails the next request sent on it, before any
 * response: the server's keep-alive timeout and the pool's reuse race. Browsers and undici's guidance send an
 * idempotent request once more in that case; any other failure, or a second one, is the answer. A socket that never
 * read a byte was not reused: its reset is the server's answer to this request, and resending it at once would only
 * double the connections a resetting host costs (crawlkit's jobs retry a dropped page later, with back-off).
 */
import type { buildConnector } from 'undici';

interface SocketErrorLike {
  code?: unknown;
  cause?: unknown;
  socket?: { bytesRead?: unknown };
}

/** Errors of sockets that had read nothing (or never connected): no pooled socket was lost. */
const freshSocketErrors = new WeakSet<object>();

/**
 * Wraps `connector` so that an error of a socket that had read nothing when it failed (a reset during the handshake,
 * or right after the request on a new connection) is known as such: `lostKeepAliveSocket` then does not resend.
 * A reset carries no socket details of its own.
 */
export function markingFreshSockets(connector: buildConnector.connector): buildConnector.connector {
  return (options, callback) =>
    connector(options, (error, socket) => {
      if (error) {
        if (typeof error === 'object') freshSocketErrors.add(error);
        callback(error, null);
        return;
      }
      // Registered before the client's own listener, so the mark is there when the request fails.
      socket.on('error', (cause: unknown) => {
        if (socket.bytesRead === 0 && typeof cause === 'object' && cause !== null) {
          freshSocketErrors.add(cause);
        }
      });
      callback(null, socket);
    });
}

/**
 * Whether `error`, thrown before any response to `method`, is a reused socket lost to the server: undici's
 * `UND_ERR_SOCKET` ("other side closed") on a socket that had already read a response, or `ECONNRESET` on a socket
 * not known to be fresh (`markingFreshSockets`; through a proxy it is not known, and one more try costs little).
 */
export function lostKeepAliveSocket(error: unknown, method: string, hasBody: boolean): boolean {
  if ((method !== 'GET' && method !== 'HEAD') || hasBody) return false;
  let link: unknown = error;
  for (let depth = 0; typeof link === 'object' && link !== null && depth < 4; depth++) {
    const { code, socket, cause } = link as SocketErrorLike;
    if (code === 'ECONNRESET') return !freshSocketErrors.has(link);
    if (code === 'UND_ERR_SOCKET') return typeof socket?.bytesRead === 'number' && socket.bytesRead > 0;
    link = cause;
  }
  return false;
}
