import { STATUS_CODES, maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';

import { httpStatusOf, type ErrorResponse, type Logger } from 'crawlkit';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

import { refusedRequestLine } from './access-log.js';
import { send, v2Error } from './respond.js';

/** Longest path parameter the router reads (Fastify's default): ids are UUIDs, 36 characters. */
export const MAX_PARAM_LENGTH = 100;

/** Node's own `headersTimeout`: headers are never given longer than that, whatever `bodyTimeoutMs` is. */
const NODE_HEADERS_TIMEOUT_MS = 60_000;

/**
 * The options of the HTTP server (Fastify's `http`) that bound a request's headers by `bodyTimeoutMs`, the time a
 * request's body may take: a client trickling its headers (a slowloris) is answered 408 and closed within about
 * that time, where Node's defaults held it 60 s plus up to 30 s (their checking interval).
 */
export function headerTimeouts(bodyTimeoutMs: number): { headersTimeout: number; connectionsCheckingInterval: number } {
  const headersTimeout = Math.min(bodyTimeoutMs, NODE_HEADERS_TIMEOUT_MS);
  return { headersTimeout, connectionsCheckingInterval: Math.min(1_000, headersTimeout) };
}

const shown = (path: string) => (path.length > 120 ? `${path.slice(0, 120)}…` : path);

/**
 * The v2 answer of a path the router refuses before any route runs (Fastify's `frameworkErrors`): a path that is
 * not valid percent-encoding, or a segment past `MAX_PARAM_LENGTH`.
 */
export function frameworkErrorAnswer(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const path = shown(request.url.split('?')[0] ?? request.url);
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      send(
        reply,
        v2Error(
          'BAD_REQUEST',
          `The path ${path} is not valid percent-encoding: encode each byte of an id or query value as %XX ` +
            '(encodeURIComponent does).',
        ),
      );
      return;
    case 'FST_ERR_MAX_PARAM_LENGTH':
      send(
        reply,
        v2Error(
          'BAD_REQUEST',
          `A segment of the path ${path} is longer than ${MAX_PARAM_LENGTH} characters: a job, schedule or ` +
            'monitor id is a UUID (36 characters), as its creation answered it.',
        ),
      );
      return;
    default:
      send(reply, v2Error('BAD_REQUEST', `Bad Request: ${error.message}`));
  }
}

/** The answer to a connection's request that is not readable HTTP, by Node's parser's error code. */
function clientErrorAnswer(code: string | undefined, headersTimeoutMs: number): ErrorResponse {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return v2Error(
        'REQUEST_HEADERS_TOO_LARGE',
        `The request's headers are larger than ${maxHeaderSize} bytes, Node's limit: send fewer or shorter ` +
          'headers (a long cookie or custom header), or start the server with node --max-http-header-size.',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return v2Error(
        'REQUEST_TIMEOUT',
        `The request's headers did not arrive within ${headersTimeoutMs} ms (the server's --body-timeout); the ` +
          'connection is closed.',
      );
    default:
      return v2Error(
        'BAD_REQUEST',
        `The request is not valid HTTP/1.1 (${code ?? 'unreadable'}); the connection is closed.`,
      );
  }
}

/**
 * The handler (Fastify's `clientErrorHandler`) that answers a request Node's HTTP parser refused in the v2 error
 * shape, then closes the connection, whose remaining bytes cannot be read as a request. `headersTimeoutMs` is the
 * server's `headersTimeout`, named in the answer to a request whose headers came too slowly. Each such request gets
 * an access line on `logger` (`refusedRequestLine`), which it had not: no route saw it.
 */
export function clientErrorHandler(
  headersTimeoutMs: number,
  logger?: Logger,
): (error: NodeJS.ErrnoException, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const body = clientErrorAnswer(error.code, headersTimeoutMs);
    const status = httpStatusOf(body.code);
    // A request no route saw gets its access line here (refused by the parser, closed by the server); a socket's own
    // error (EPIPE, ETIMEDOUT: the client went away) is no request, and the route's line says it if there was one. So
    // is the end of a connection mid-message (HPE_INVALID_EOF_STATE): the client left, its request's line says 499.
    if (
      (error.code?.startsWith('HPE_') && error.code !== 'HPE_INVALID_EOF_STATE') ||
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
    ) {
      const rawPacket = (error as { rawPacket?: Buffer }).rawPacket;
      const { line, fields } = refusedRequestLine(rawPacket, socket.remoteAddress, status, body.code ?? 'BAD_REQUEST');
      logger?.info(line, fields);
    }
    if (socket.writable) {
      const text = JSON.stringify(body);
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
      );
    }
    socket.destroy(error);
  };
}
