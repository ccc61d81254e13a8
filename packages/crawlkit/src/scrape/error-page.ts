/**
 * The warning of a document whose page answered an HTTP error (4xx/5xx): kept as a document, `success: true` with its
 * `metadata.statusCode`, as v2 keeps it. Its warning says the status first: what else it says of such a page ("No
 * main content was found", a soft 404's title) is beside the point once the status is known.
 */
import type { STATUS_CODES } from 'node:http';

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

/** `warning` (a document's, which starts with `errorPageNote(status)`) with the note saying how many asks it took. */
export function withAttempts(warning: string | undefined, status: number, attempts: string): string {
  const note = errorPageNote(status, attempts) ?? '';
  const plain = errorPageNote(status);
  if (warning === undefined || warning === '') return note;
  const rest = plain !== undefined && warning.startsWith(plain) ? warning.slice(plain.length).trimStart() : warning;
  return rest === '' ? note : `${note} ${rest}`;
}
