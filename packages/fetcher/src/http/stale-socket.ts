/**
 * A keep-alive socket the server closed while it sat idle in the pool fails the next request sent on it, before any
 * response: the server's keep-alive timeout and the pool's reuse race. Browsers and undici's guidance send an
 * idempotent request once more in that case; any other failure, or a second one, is the answer.
 */

interface SocketErrorLike {
  code?: unknown;
  cause?: unknown;
  socket?: { bytesRead?: unknown };
}

/**
 * Whether `error`, thrown before any response to `method`, is a reused socket lost to the server: undici's
 * `UND_ERR_SOCKET` ("other side closed") on a socket that had already read a response, or `ECONNRESET` (a reset
 * carries no socket details; on an idempotent request one more try costs little).
 */
export function lostKeepAliveSocket(error: unknown, method: string, hasBody: boolean): boolean {
  if ((method !== 'GET' && method !== 'HEAD') || hasBody) return false;
  let link: unknown = error;
  for (let depth = 0; typeof link === 'object' && link !== null && depth < 4; depth++) {
    const { code, socket, cause } = link as SocketErrorLike;
    if (code === 'ECONNRESET') return true;
    if (code === 'UND_ERR_SOCKET') return typeof socket?.bytesRead === 'number' && socket.bytesRead > 0;
    link = cause;
  }
  return false;
}
