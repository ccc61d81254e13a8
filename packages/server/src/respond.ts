import {
  answerInOperatorWords,
  httpStatusOf,
  unrecognizedKeysSentence,
  type CrawlkitErrorCode,
  type ErrorResponse,
} from 'crawlkit';
import type { FastifyReply } from 'fastify';

function isErrorResponse(value: object): value is ErrorResponse {
  return (value as { success?: unknown }).success === false;
}

/** A v2 error body. */
export function v2Error(code: CrawlkitErrorCode, error: string, details?: unknown): ErrorResponse {
  return details === undefined ? { success: false, code, error } : { success: false, code, error, details };
}

const UNRECOGNIZED = unrecognizedKeysSentence();

interface Issue {
  code: string;
  message: string;
  path: unknown[];
}

const isIssue = (value: unknown): value is Issue =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Issue).code === 'string' &&
  typeof (value as Issue).message === 'string' &&
  Array.isArray((value as Issue).path);

/**
 * A `BAD_REQUEST` body in upstream's shape (reference §17): `details` the zod issues, and `error` upstream's (the
 * unknown-key sentence, else a custom rule's message, else `Bad Request`), continued with crawlkit's sentence naming
 * the field and what to fix when that begins with it ("Bad Request: limit: Too small: …"): a client shows `error`
 * alone (firecrawl-js puts it in its `SdkError`'s message), and one matching upstream's words still finds them at
 * the start. A sentence that does not begin so is kept as one more issue (path `[]`). Other errors, and 400s
 * without issues, pass unchanged.
 */
export function upstreamShape(body: ErrorResponse): ErrorResponse {
  if (body.code !== 'BAD_REQUEST' || !Array.isArray(body.details)) return body;
  const issues = body.details.filter(isIssue);
  // Without issues the sentence is one upstream answers as it is ("No valid URLs provided").
  if (issues.length === 0) return body;
  const upstream = issues.some((i) => i.code === 'unrecognized_keys')
    ? UNRECOGNIZED
    : (issues.find((i) => i.code === 'custom')?.message ?? 'Bad Request');
  if (body.error.startsWith(upstream)) return body;
  const details: unknown[] = [...(body.details as unknown[])];
  if (!issues.some((i) => i.message === body.error)) details.push({ code: 'custom', path: [], message: body.error });
  return { ...body, error: upstream, details };
}

/** The v2 error code of each reply answered with one (`sendError`), for its access line. */
const replyCodes = new WeakMap<FastifyReply, string>();

/**
 * Sends `body`, the error answer of v2 `code`, with `status`; the code is kept for the request's access line
 * (`errorCodeOf`), read where the answer is built rather than parsed back out of the bytes sent.
 */
export function sendError(reply: FastifyReply, status: number, code: string | undefined, body: object): FastifyReply {
  if (code !== undefined) replyCodes.set(reply, code);
  return reply.code(status).send(body);
}

/** The v2 error code `reply` was answered with; undefined for a success, or an answer Fastify built itself. */
export function errorCodeOf(reply: FastifyReply): string | undefined {
  return replyCodes.get(reply);
}

/**
 * Sends a v2 answer: an error with the HTTP status of its code (crawlkit's `ERROR_CODES`, the one table), in
 * upstream's shape, anything else with 200; the engine options its messages name told as the server's.
 */
export function send(reply: FastifyReply, result: object): FastifyReply {
  const answer = answerInOperatorWords(result, 'serve');
  if (!isErrorResponse(answer)) return reply.code(200).send(answer);
  return sendError(reply, httpStatusOf(answer.code), answer.code, inVersionWords(reply, upstreamShape(answer)));
}

/** A v1 route's 400 for an unknown key names the v1 documentation, as upstream's v1 API does. */
function inVersionWords(reply: FastifyReply, body: ErrorResponse): ErrorResponse {
  if (!reply.request.url.startsWith('/v1/') || !body.error.startsWith(UNRECOGNIZED)) return body;
  return { ...body, error: unrecognizedKeysSentence('v1') + body.error.slice(UNRECOGNIZED.length) };
}

/** The connection closes once the answer is written, whatever is left of the request's body. */
export function closeAfter(reply: FastifyReply): void {
  reply.header('connection', 'close');
  reply.raw.once('finish', () => reply.request.raw.socket?.destroy());
}
