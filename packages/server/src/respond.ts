import { httpStatusOf, type CrawlkitErrorCode, type ErrorResponse } from 'crawlkit';
import type { FastifyReply } from 'fastify';

function isErrorResponse(value: object): value is ErrorResponse {
  return (value as { success?: unknown }).success === false;
}

/** A v2 error body. */
export function v2Error(code: CrawlkitErrorCode, error: string, details?: unknown): ErrorResponse {
  return details === undefined ? { success: false, code, error } : { success: false, code, error, details };
}

/**
 * Sends a v2 answer: an error with the HTTP status of its code (crawlkit's `ERROR_CODES`, the one table), anything
 * else with 200.
 */
export function send(reply: FastifyReply, result: object): FastifyReply {
  return reply.code(isErrorResponse(result) ? httpStatusOf(result.code) : 200).send(result);
}
