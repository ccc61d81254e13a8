import { redactUrl } from '@crawlkit/fetcher';
import { isStoreError, type SecretBox } from '@crawlkit/store';

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

/**
 * The job as it is stored: every header value (request `headers`, crawl `scrapeOptions.headers`, webhook `headers`)
 * sealed by `box`, names left readable. A resume needs the values, and whoever reads the store's files must not
 * (cookies, `Authorization`, webhook tokens).
 */
export function sealJobSecrets<T>(stored: T, box: SecretBox): T {
  const job = stored as T & WithHeaders;
  const seal = (headers: Record<string, string>) => mapValues(headers, (value) => box.seal(value));
  const request = { ...job.request };
  if (request.headers) request.headers = seal(request.headers);
  if (request.scrapeOptions?.headers) {
    request.scrapeOptions = { ...request.scrapeOptions, headers: seal(request.scrapeOptions.headers) };
  }
  const sealed = { ...job, request };
  if (job.webhook) sealed.webhook = { ...job.webhook, headers: seal(job.webhook.headers) };
  return sealed;
}

/**
 * The engine's webhook secret sealed for a job (`StoredJob.webhookSecret`), so that whichever process sends the job's
 * events signs them with it. Undefined when the store has no key to seal it with (Redis without a `secretKey`): the
 * job is not refused for it, and the sending process's own secret signs its events, as before jobs kept one.
 */
export function sealWebhookSecret(secret: string | undefined, box: SecretBox): string | undefined {
  if (secret === undefined) return undefined;
  try {
    return box.seal(secret);
  } catch (error) {
    if (isStoreError(error) && error.code === 'STORE_SECRET_KEY_MISSING') return undefined;
    throw error;
  }
}

/** What stands for a header value in an output (the value itself is never echoed). */
const HIDDEN: SecretBox = { seal: () => '[redacted]', open: (value) => value };

/**
 * The job's header values replaced by `[redacted]`, and its webhook URL without the user name and password it may
 * carry (`https://user:pass@host/`), for outputs that show a job's options.
 */
export function hideJobSecrets<T>(stored: T): T {
  const hidden = sealJobSecrets(stored, HIDDEN) as T & WithHeaders;
  if (hidden.webhook?.url !== undefined) hidden.webhook = { ...hidden.webhook, url: redactUrl(hidden.webhook.url) };
  return hidden;
}

/** A stored request with its header values opened (`sealJobSecrets` sealed them). */
export function openRequestSecrets<R>(request: R, box: SecretBox): R {
  const opened = { ...request } as R & WithHeaders['request'];
  if (opened.headers) opened.headers = openHeaders(opened.headers, box);
  if (opened.scrapeOptions?.headers) {
    opened.scrapeOptions = { ...opened.scrapeOptions, headers: openHeaders(opened.scrapeOptions.headers, box) };
  }
  return opened;
}

/** Header values opened (webhook headers stay sealed in the outbox until the delivery is sent). */
export function openHeaders(headers: Record<string, string>, box: SecretBox): Record<string, string> {
  return mapValues(headers, (value) => box.open(value));
}
