/**
 * The warning of a document whose page answered an HTTP error (4xx/5xx): kept as a document, `success: true` with its
 * `metadata.statusCode`, as v2 keeps it. Its warning says the status first: what else it says of such a page ("No
 * main content was found", a soft 404's title) is beside the point once the status is known.
 */
import type { STATUS_CODES } from 'node:http';

import { warningText, type ExtractionWarning } from '@crawlkit/extractor/page-warnings';

/**
 * Node's reason phrases, read when an error answer is met: an ESM import of `node:http` reads every export, and its
 * lazy `WebSocket` loads the undici bundled in Node on every scrape's path (test/startup-modules).
 */
function reasonPhrase(status: number): string | undefined {
  const http = process.getBuiltinModule('node:http') as { STATUS_CODES: typeof STATUS_CODES };
  return http.STATUS_CODES[status];
}

/**
 * The note that starts an error answer's warning (`The page answered 404 Not Found; the document is the server's
 * error page.`); `attempts` says how many asks had that answer when a crawl or batch retried it
 * (`4 attempts over 7.2 s`). Undefined below 400.
 */
export function errorPageNote(status: number, attempts?: string): string | undefined {
  if (!(status >= 400)) return undefined;
  const reason = reasonPhrase(status);
  const answered = `The page answered ${status}${reason ? ` ${reason}` : ''}`;
  if (attempts === undefined) return `${answered}; the document is the server's error page.`;
  return `${answered} to each of ${attempts}; the document is the server's error page, its last answer.`;
}

/** An error answer's note among a document's warnings, by its code: a job finds it so to say how many asks it took. */
export interface ErrorPageWarning {
  readonly code: 'ERROR_PAGE';
  readonly message: string;
}

/** One part of a document's `warning`: an extraction's (text, or a coded page warning), or an error answer's note. */
export type DocumentWarning = ExtractionWarning | ErrorPageWarning;

/** `errorPageNote(status)` as a coded warning; undefined below 400. */
export function errorPageWarning(status: number): ErrorPageWarning | undefined {
  const message = errorPageNote(status);
  return message === undefined ? undefined : { code: 'ERROR_PAGE', message };
}

/** A document's `warning` from its parts, in order (undefined when there are none). */
export function joinWarnings(parts: readonly DocumentWarning[]): string | undefined {
  return parts.length ? parts.map(warningText).join(' ') : undefined;
}

/**
 * A document's `warning` from its `parts`, its error answer's note (`ERROR_PAGE`, found by its code) saying how many
 * asks had the answer; the note first when the parts had none.
 */
export function withAttempts(parts: readonly DocumentWarning[], status: number, attempts: string): string {
  const note = errorPageNote(status, attempts) ?? '';
  const rest = parts.filter((part) => typeof part === 'string' || part.code !== 'ERROR_PAGE');
  return joinWarnings(note === '' ? rest : [note, ...rest]) ?? '';
}
