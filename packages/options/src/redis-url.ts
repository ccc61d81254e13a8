/**
 * The one rule of what a Redis URL must be before crawlkit hands it to its Redis client (ioredis), shared by
 * `@crawlkit/redis`'s `redis()` and `createRedisStore()` and the command line's `--redis`. ioredis reads a URL it
 * cannot make sense of without a word: a database that is not a number (`/abc`) becomes database 0, and a password
 * with a `%` that starts no escape throws a bare `URI malformed`.
 */
import { InvalidOptionError } from './invalid-option-error.js';
import { redactUrl } from './redact-url.js';

/** How a Redis URL is written, for messages. */
export const REDIS_URL_FORM = 'redis://[[<user>]:<password>@]host[:port][/db] (rediss:// for TLS)';

const ENCODE_ADVICE =
  'percent-encode the user and password (encodeURIComponent in JavaScript: / as %2F, # as %23, ? as %3F, @ as %40, % as %25)';

/** Whether `text` decodes as a URL component (every `%` starts a `%XX` escape). */
function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * What is wrong with `url` as a Redis URL, in words that say what to change; undefined when nothing is. Never repeats
 * the URL's user or password.
 */
export function redisUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // A password with `/`, `#` or `?` ends the URL's authority early, and the rest does not parse.
    return /^[a-z][a-z0-9+.-]*:\/\/[^]*@/i.test(url)
      ? `it does not parse as a URL: its user or password may hold a character a URL reserves; ${ENCODE_ADVICE}`
      : 'it does not parse as a URL';
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    return `its scheme is ${parsed.protocol.slice(0, -1) || 'missing'}, not redis or rediss`;
  }
  if (!decodes(parsed.username) || !decodes(parsed.password)) {
    return `its user or password has a % that starts no %XX escape; ${ENCODE_ADVICE}`;
  }
  const path = parsed.pathname;
  if (path !== '' && path !== '/' && !/^\/\d+$/.test(path)) {
    return (
      `what follows the host, "${path}", is not a database number (redis://host:6379/3); ` +
      'a database that is not a number would be database 0'
    );
  }
  return undefined;
}

/**
 * Throws `INVALID_OPTION` naming `url`'s problem (see `redisUrlProblem`), before any connection is tried; the option
 * is `name` in the message.
 */
export function assertRedisUrl(url: string, name = '`url`'): void {
  const message = redisUrlError(url, name);
  if (message !== undefined) throw new InvalidOptionError(`${message}.`);
}

/**
 * What is wrong with `url` as the Redis URL of `name` (how the message names the option), as a message naming the form
 * and the URL without its credentials; undefined when nothing is.
 */
export function redisUrlError(url: string, name: string): string | undefined {
  const problem = redisUrlProblem(url);
  if (problem === undefined) return undefined;
  return `Expected ${name} to be a Redis URL, ${REDIS_URL_FORM}, got "${redactUrl(url)}": ${problem}`;
}
