import { clearTimeout, setTimeout } from 'node:timers';
import type { FastifyError, FastifyInstance } from 'fastify';

import { markServerClosed } from './access-log.js';
import { v2Error } from './respond.js';

/** The one route that takes a multipart upload (`parse-route.ts`). */
export const PARSE_ROUTE = '/v2/parse';

/**
 * JSON nesting the server reads: far beyond any v2 body (a json format's schema nests a dozen levels), far below
 * what a recursive reader of the value can take (10,000 levels overflowed the stack: a 500).
 */
export const MAX_JSON_DEPTH = 128;

/** Error codes of this module's rejections, mapped to v2 answers by `describeBodyError`. */
const TOO_DEEP = 'CK_BODY_TOO_DEEP';
const NOT_READ = 'CK_BODY_NOT_READ';
const BODY_TIMEOUT = 'CK_BODY_TIMEOUT';

/** Whether `error` is the body timeout's (`--body-timeout`), however a reader passed it on. */
export function isBodyTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === BODY_TIMEOUT;
}

function bodyError(code: string, message: string, statusCode: number): FastifyError {
  const error: FastifyError = Object.assign(new Error(message), { code, statusCode, name: 'BodyError' });
  return error;
}

/** How deep `text`'s arrays and objects nest (brackets inside strings do not count), stopping past `max`. */
export function jsonDepth(text: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > deepest && (deepest = depth) > max) return deepest;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return deepest;
}

function isPlainJson(text: string): boolean {
  try {
    JSON.parse(text.replace(/^\uFEFF/, ''));
    return true;
  } catch {
    return false;
  }
}

/**
 * How the server reads bodies: JSON whatever the `Content-Type` (`curl -d` sends form-urlencoded), an empty body as
 * `{}` (upstream's reading: the Python SDK cancels with `Content-Type: application/json` and no body), multipart
 * only for `PARSE_ROUTE` (which reads it itself; any other route answers 400 saying to send JSON), nesting past
 * `MAX_JSON_DEPTH` refused 400.
 * A body must arrive within `bodyTimeoutMs` of the headers, else 408 and the connection closes.
 */
export function registerBodyParsing(app: FastifyInstance, bodyTimeoutMs: number): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(/^multipart\//i, { parseAs: 'buffer' }, (request, _body, done) => {
    // POST /v2/parse reads multipart/form-data itself and says what else it wants; every other route reads JSON only.
    if (request.routeOptions.url === PARSE_ROUTE) return done(null, undefined);
    const type = request.headers['content-type']?.split(';')[0]?.trim() ?? 'multipart';
    const message =
      `Bad request: the body is a multipart form (${type}), which ${request.method} ${request.routeOptions.url ?? request.url} ` +
      `does not read: send one JSON object such as '{"url":"https://…"}' with Content-Type: application/json ` +
      `(only POST ${PARSE_ROUTE} takes an upload).`;
    done(bodyError(NOT_READ, message, 400), undefined);
  });
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    const encoding = request.headers['content-encoding']?.trim().toLowerCase();
    if (encoding && encoding !== 'identity') {
      const message = `Bad request: the body is sent with Content-Encoding ${encoding}, which is not read: send the JSON uncompressed.`;
      return done(bodyError(NOT_READ, message, 400), undefined);
    }
    if (text.trim() === '') return done(null, {});
    if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      return done(
        bodyError(TOO_DEEP, `Bad request: the JSON nests deeper than ${MAX_JSON_DEPTH} levels.`, 400),
        undefined,
      );
    }
    void json(request, text, (error, value) => {
      if (error && isPlainJson(text)) {
        // Valid JSON refused by the parser's prototype-poisoning guard: said as such, not as malformed JSON.
        const message =
          'Bad request: a JSON body may not have a `__proto__` key, nor a `constructor` key holding `prototype`: remove it.';
        return done(bodyError(NOT_READ, message, 400), undefined);
      }
      done(error, value);
    });
  });

  app.addHook('preParsing', async (request, reply, payload) => {
    const headers = request.headers;
    const hasBody = Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined;
    if (!hasBody) return payload;
    const timer = setTimeout(() => {
      if (request.raw.complete || reply.sent) return;
      if (payload.listenerCount('error') === 0) {
        markServerClosed(request.raw, 408, `the body did not arrive within ${bodyTimeoutMs} ms`);
        request.raw.socket?.destroy();
        return;
      }
      // The body reader listens for errors on the payload: it answers with this one (the error handler's 408).
      payload.emit(
        'error',
        bodyError(
          BODY_TIMEOUT,
          `The request body did not arrive within ${bodyTimeoutMs} ms (the server's --body-timeout, bodyTimeoutMs): ` +
            'send the body at once after the headers, or start the server with a longer --body-timeout for slow links.',
          408,
        ),
      );
    }, bodyTimeoutMs);
    timer.unref();
    const clear = () => clearTimeout(timer);
    payload.once('end', clear);
    payload.once('close', clear);
    reply.raw.once('close', clear);
    return payload;
  });
}

/**
 * The v2 answer of a body the server could not read, or undefined for other errors. `contentType` is the request's:
 * form fields (`curl -F`, `-d url=…`) are told as what they are, since only JSON is read.
 */
export function describeBodyError(error: FastifyError, bodyLimit: number, contentType = ''): object | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return v2Error('PAYLOAD_TOO_LARGE', `Request body is too large: the limit is ${bodyLimit} bytes.`);
    case 'FST_ERR_CTP_INVALID_JSON_BODY': {
      const form = /^application\/x-www-form-urlencoded/i.test(contentType)
        ? ' (this one is form fields, application/x-www-form-urlencoded, which are not read: send ' +
          `'{"url":"https://…"}' with Content-Type: application/json)`
        : '';
      return v2Error(
        'BAD_REQUEST_INVALID_JSON',
        `Bad request, malformed JSON: send one JSON object as the body${form}.`,
      );
    }
    case TOO_DEEP:
    case NOT_READ:
      return v2Error('BAD_REQUEST_INVALID_JSON', error.message);
    case BODY_TIMEOUT:
      return v2Error('REQUEST_TIMEOUT', error.message);
    default:
      return undefined;
  }
}
