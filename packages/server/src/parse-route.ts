import multipart from '@fastify/multipart';
import { sizeText, type ParseFile } from 'crawlkit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { isBodyTimeout, PARSE_ROUTE } from './body.js';
import { closeAfter, send, v2Error } from './respond.js';
import type { RouteContext } from './routes.js';

/** Largest `options` part: a JSON object of scrape options (a json format's schema included). */
const OPTIONS_LIMIT = 1024 * 1024;

/** Code of the error `readUpload` throws for an `options` part that is JSON but not an object. */
const OPTIONS_NOT_OBJECT = 'CK_OPTIONS_NOT_OBJECT';

const SEND =
  'send a multipart/form-data body (with its boundary in the Content-Type) of one `file` part and an optional ' +
  '`options` part holding the scrape options as one JSON object';

/**
 * The scrape options of an `options` part: its JSON text, or the value the multipart reader already parsed (a part
 * sent with `Content-Type: application/json`, as `curl -F 'options=…;type=application/json'` and other clients do).
 */
function optionsOf(value: unknown): unknown {
  const options: unknown = typeof value === 'string' ? (value.trim() === '' ? {} : JSON.parse(value)) : value;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw Object.assign(new Error('options not an object'), { code: OPTIONS_NOT_OBJECT });
  }
  return options;
}

/** What a multipart upload holds: the `file` part and the `options` part (JSON), as the official SDKs send them. */
async function readUpload(request: FastifyRequest): Promise<{ file?: ParseFile; options: unknown }> {
  let file: ParseFile | undefined;
  let options: unknown = {};
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file' || file) {
        part.file.resume();
        continue;
      }
      const data = await part.toBuffer();
      if (part.file.truncated) throw Object.assign(new Error('file too large'), { code: 'FST_REQ_FILE_TOO_LARGE' });
      file = { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), filename: part.filename };
      if (part.mimetype) file.contentType = part.mimetype;
    } else if (part.fieldname === 'options') {
      options = optionsOf(part.value);
    }
  }
  return file ? { file, options } : { options };
}

/** The v2 answer of an upload `readUpload` could not read: every error it throws is the upload's. */
function uploadError(error: unknown, limit: number): object {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return v2Error(
        'PAYLOAD_TOO_LARGE',
        `The uploaded file is larger than ${sizeText(limit)} (parseFileLimit; \`crawlkit serve --parse-file-limit\`).`,
      );
    case 'FST_FILES_LIMIT':
      return v2Error('BAD_REQUEST', `Bad Request: the upload has more than one file: ${SEND}.`);
    case OPTIONS_NOT_OBJECT:
      return v2Error('BAD_REQUEST', `Bad Request: the \`options\` part must be one JSON object of scrape options.`);
  }
  // a part declared `application/json` is parsed by the multipart reader, which throws this for bad JSON
  if (error instanceof SyntaxError || code === 'FST_INVALID_JSON_FIELD_ERROR') {
    return v2Error(
      'BAD_REQUEST',
      'Bad Request: the `options` part is not valid JSON: send the options as one JSON object.',
    );
  }
  // The multipart reader's own errors ("Boundary not found", "Unexpected end of multipart data") carry no code.
  return v2Error(
    'BAD_REQUEST',
    `Bad Request: the multipart upload could not be read (${(error as Error).message}): ${SEND}.`,
  );
}

/**
 * `POST /v2/parse`: a multipart upload (a `file` part, an `options` part of JSON) converted into a v2 document by
 * `Crawlkit#parse`. Files up to `parseFileLimit` bytes; the upload is read into memory (the conversion needs it whole).
 */
export function registerParseRoute(app: FastifyInstance, ctx: RouteContext): void {
  const limit = ctx.parseFileLimit;
  void app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: limit, files: 1, fields: 8, fieldSize: OPTIONS_LIMIT } });
    scope.post(PARSE_ROUTE, async (request: FastifyRequest, reply: FastifyReply) => {
      if (!request.isMultipart()) {
        return send(reply, v2Error('BAD_REQUEST', `Bad Request: POST /v2/parse takes an upload: ${SEND}.`));
      }
      let upload: { file?: ParseFile; options: unknown };
      try {
        upload = await readUpload(request);
      } catch (error) {
        if (isBodyTimeout(error)) {
          // the upload stopped coming: 408 as for any body, and the connection closed (its rest is never read)
          closeAfter(reply);
          return send(reply, v2Error('REQUEST_TIMEOUT', (error as Error).message));
        }
        return send(reply, uploadError(error, limit));
      }
      const { file, options } = upload;
      if (!file) return send(reply, v2Error('BAD_REQUEST', 'Bad Request: the upload has no `file` part.'));
      const call = ctx.call(request, reply);
      return send(
        reply,
        await ctx.admission.queued(() => ctx.crawlkit.parse(file, options as never, call), call.tenant),
      );
    });
  });
}
