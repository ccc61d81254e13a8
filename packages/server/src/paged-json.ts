import { setImmediate } from 'node:timers';
import { Readable } from 'node:stream';

import { answerInOperatorWords } from 'crawlkit';
import type { FastifyReply } from 'fastify';

/** Characters written between two turns of the event loop. */
const PIECE_CHARS = 1024 * 1024;

/** The JSON text of `body` in pieces of ~1 MB: its fields, then its `data` items one by one. */
async function* pieces(body: { data: readonly unknown[] }): AsyncGenerator<string> {
  const { data, ...fields } = body;
  const head = JSON.stringify(fields);
  let text = `${head.slice(0, -1)}${Object.keys(fields).length ? ',' : ''}"data":[`;
  for (const [i, item] of data.entries()) {
    text += `${i > 0 ? ',' : ''}${JSON.stringify(item)}`;
    if (text.length >= PIECE_CHARS) {
      yield text;
      text = '';
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  yield `${text}]}`;
}

/**
 * Sends a 200 JSON answer whose `data` may hold ~10 MB of documents (a job's status page) in pieces, with a turn of
 * the event loop between them: Fastify's one `JSON.stringify` of four such pages at once held other requests for
 * seconds (issue 38). The bytes are those `JSON.stringify(body)` gives, the documents' warnings in server words
 * (`answerInOperatorWords`).
 */
export function sendPaged(reply: FastifyReply, body: { data: readonly unknown[] }): FastifyReply {
  return reply
    .code(200)
    .type('application/json; charset=utf-8')
    .send(Readable.from(pieces(answerInOperatorWords(body, 'serve'))));
}
