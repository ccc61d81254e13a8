import { redactUrl } from '@crawlkit/fetcher';
import { isSealed, isStoreError, type SecretBox } from '@crawlkit/store';

/**
 * The parts of a stored job that hold header values: the request's (a batch's, a crawl's scrape options') and the
 * webhook's.
 */
interface WithHeaders {
  request: { headers?: Record<string, string>; scrapeOptions?: { headers?: Record<string, string> } };
  webhook?: { url?: string; headers: Record<string, string> };
}

function mapValues(headers: Record<string, string>, fn: (value: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, fn(value)]));
}

/** The job's header values (request `headers`, crawl `scrapeOptions.headers`, webhook `headers`) through `fn`. */
function mapHeaderValues<T>(stored: T, fn: (value: string) => string): T {
  const job = stored as T & WithHeaders;
  const map = (headers: Record<string, string>) => mapValues(headers, fn);
  const request = { ...job.request };
  if (request.headers) request.headers = map(request.headers);
  if (request.scrapeOptions?.headers) {
    request.scrapeOptions = { ...request.scrapeOptions, headers: map(request.scrapeOptions.headers) };
  }
  const mapped = { ...job, request };
  if (job.webhook) mapped.webhook = { ...job.webhook, headers: map(job.webhook.headers) };
  return mapped;
}

/**
 * The job as it is stored: every header value (request `headers`, crawl `scrapeOptions.headers`, webhook `headers`)
 * and the webhook's URL (a token in its path or query, a user name and password) sealed by `box`, header names left
 * readable. A resume needs the values, and whoever reads the store's files must not (cookies, `Authorization`,
 * webhook tokens). The webhook URL is kept as it is when the store has no key (Redis without a `secretKey`, which
 * refuses header values) or the key lives in this engine's memory only (`persistSecrets: false`): its events must
 * still reach it after a restart, where a lost header value only stops the job's resume.
 */
export function sealJobSecrets<T>(stored: T, box: SecretBox): T {
  const sealed = mapHeaderValues(stored, (value) => box.seal(value)) as T & WithHeaders;
  if (sealed.webhook?.url !== undefined && box.memoryOnly !== true) {
    sealed.webhook = { ...sealed.webhook, url: sealIfKeyed(sealed.webhook.url, box) ?? sealed.webhook.url };
  }
  return sealed;
}

/** `value` sealed by `box`; undefined when the store has no key to seal it with (`STORE_SECRET_KEY_MISSING`). */
function sealIfKeyed(value: string, box: SecretBox): string | undefined {
  try {
    return box.seal(value);
  } catch (error) {
    if (isStoreError(error) && error.code === 'STORE_SECRET_KEY_MISSING') return undefined;
    throw error;
  }
}

/**
 * The engine's webhook secret sealed for a job (`StoredJob.webhookSecret`), so that whichever process sends the job's
 * events signs them with it. Undefined when the store has no key to seal it with (Redis without a `secretKey`): the
 * job is not refused for it, and the sending process's own secret signs its events, as before jobs kept one.
 */
export function sealWebhookSecret(secret: string | undefined, box: SecretBox): string | undefined {
  return secret === undefined ? undefined : sealIfKeyed(secret, box);
}

/** What stands for a header value in an output (the value itself is never echoed). */
const HIDDEN = '[redacted]';

/**
 * The job's header values replaced by `[redacted]`, and its webhook URL (opened by `box` when it is sealed) without
 * the user name and password it may carry (`https://user:pass@host/`), for outputs that show a job's options. A URL
 * that cannot be opened here (sealed with another key) is shown as `[redacted]`.
 */
export function hideJobSecrets<T>(stored: T, box?: SecretBox): T {
  const hidden = mapHeaderValues(stored, () => HIDDEN) as T & WithHeaders;
  if (hidden.webhook?.url !== undefined)
    hidden.webhook = { ...hidden.webhook, url: shownWebhookUrl(hidden.webhook.url, box) };
  return hidden;
}

/**
 * A stored webhook URL as an output shows it: opened by `box`, without its user name and password; `[redacted]` when
 * it cannot be opened here.
 */
export function shownWebhookUrl(url: string, box: SecretBox | undefined): string {
  const opened = openWebhookUrl(url, box);
  return opened === undefined ? HIDDEN : redactUrl(opened);
}

/**
 * A webhook URL as `sealJobSecrets` stored it, opened; one stored before URLs were sealed (or by a store with no key)
 * comes back as it is. Undefined when it is sealed and cannot be opened here (no box, no key, another key).
 */
export function openWebhookUrl(url: string, box: SecretBox | undefined): string | undefined {
  if (!isSealed(url)) return url;
  if (!box) return undefined;
  try {
    return box.open(url);
  } catch (error) {
    if (isStoreError(error)) return undefined;
    throw error;
  }
}

/** The job with its header values and webhook URL opened (`sealJobSecrets` sealed them), to compare with a request. */
export function openJobSecrets<T>(stored: T, box: SecretBox): T {
  const opened = mapHeaderValues(stored, (value) => box.open(value)) as T & WithHeaders;
  if (opened.webhook?.url !== undefined) opened.webhook = { ...opened.webhook, url: box.open(opened.webhook.url) };
  return opened;
}

/** A stored request with its header values opened (`sealJobSecrets` sealed them). */
export function openRequestSecrets<R>(request: R, box: SecretBox): R {
  return mapHeaderValues({ request }, (value) => box.open(value)).request;
}

/** Header values opened (webhook headers stay sealed in the outbox until the delivery is sent). */
export function openHeaders(headers: Record<string, string>, box: SecretBox): Record<string, string> {
  return mapValues(headers, (value) => box.open(value));
}
