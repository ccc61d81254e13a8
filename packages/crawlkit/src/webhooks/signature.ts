import { createHmac, timingSafeEqual } from 'node:crypto';

import { VERSION } from '../cli/version.js';

/** Headers of every delivery (lower-case, as Node's `IncomingMessage` shows them). */
export const WEBHOOK_HEADERS = {
  /** `sha256=<hex HMAC-SHA256(secret, raw body)>`; only when a secret is configured. */
  signature: 'x-crawlkit-signature',
  /** The same value under the upstream name, for drop-in Firecrawl receivers. */
  upstreamSignature: 'x-firecrawl-signature',
  /** The delivery id: the payload's `webhookId`, the same on every retry of one event. */
  delivery: 'x-crawlkit-delivery',
  /** When this attempt was sent, in Unix seconds. */
  timestamp: 'x-crawlkit-timestamp',
  /**
   * `sha256=<hex HMAC-SHA256(secret, "<delivery>.<timestamp>.<raw body>")>`: binds the delivery id and the timestamp
   * to the body, so a receiver can reject stale or replayed deliveries. Only when a secret is configured.
   */
  timestampSignature: 'x-crawlkit-timestamp-signature',
} as const;

/**
 * What a delivery says it is, unless the webhook's own `headers` say otherwise: crawlkit's call, not the page
 * fetcher's browser-like request (upstream sends its HTTP client's defaults; no receiver can rely on them).
 */
export const WEBHOOK_IDENTITY: Readonly<Record<string, string>> = {
  'user-agent': `crawlkit/${VERSION} (webhook)`,
  accept: '*/*',
};

/** Header names crawlkit sets itself; a webhook's own `headers` cannot override them. */
export const RESERVED_HEADERS: ReadonlySet<string> = new Set(Object.values(WEBHOOK_HEADERS));

function hmac(secret: string, data: string | Uint8Array): string {
  return `sha256=${createHmac('sha256', secret).update(data).digest('hex')}`;
}

/** The headers crawlkit adds to one delivery attempt. */
export function deliveryHeaders(options: {
  body: string;
  deliveryId: string;
  secret?: string | undefined;
  now?: number;
}): Record<string, string> {
  const timestamp = String(Math.floor((options.now ?? Date.now()) / 1000));
  const headers: Record<string, string> = {
    [WEBHOOK_HEADERS.delivery]: options.deliveryId,
    [WEBHOOK_HEADERS.timestamp]: timestamp,
  };
  if (options.secret) {
    const signature = hmac(options.secret, options.body);
    headers[WEBHOOK_HEADERS.signature] = signature;
    headers[WEBHOOK_HEADERS.upstreamSignature] = signature;
    headers[WEBHOOK_HEADERS.timestampSignature] = hmac(
      options.secret,
      `${options.deliveryId}.${timestamp}.${options.body}`,
    );
  }
  return headers;
}

/** Request headers as Node (`req.headers`), the Fetch API (`Headers`) or a plain object give them. */
export type WebhookHeaders =
  Headers | Readonly<Record<string, string | readonly string[] | undefined>> | { get(name: string): string | null };

export interface VerifyWebhookOptions {
  /**
   * How far the delivery's timestamp may be from now, in seconds; older (or future) deliveries are rejected.
   * @default 300
   */
  toleranceSeconds?: number;
  /** The current time in epoch milliseconds (tests). @default Date.now() */
  now?: number;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  let value = record[name];
  if (value === undefined) {
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    if (key !== undefined) value = record[key];
  }
  return Array.isArray(value) ? (value as readonly string[])[0] : (value as string | undefined);
}

function sameSignature(actual: string | undefined, expected: string): boolean {
  if (actual === undefined) return false;
  const a = Buffer.from(actual.trim());
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Checks a crawlkit webhook delivery: the body signature (`X-Crawlkit-Signature`), and the timestamp signature that
 * binds the delivery id and the send time to the body, with the time within `toleranceSeconds` of now. Pass the raw
 * body exactly as received (not re-serialised JSON). Returns false for anything missing, altered or stale.
 *
 * To reject replays, also remember the `X-Crawlkit-Delivery` ids seen within the tolerance window: a retry of an
 * event carries the same id.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): boolean {
  if (!secret) return false;
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  const deliveryId = header(headers, WEBHOOK_HEADERS.delivery);
  const timestamp = header(headers, WEBHOOK_HEADERS.timestamp);
  if (!deliveryId || !timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  if (!sameSignature(header(headers, WEBHOOK_HEADERS.signature), hmac(secret, body))) return false;
  const signed = hmac(secret, `${deliveryId}.${timestamp}.${body}`);
  if (!sameSignature(header(headers, WEBHOOK_HEADERS.timestampSignature), signed)) return false;
  const toleranceMs = (options.toleranceSeconds ?? 300) * 1000;
  return Math.abs((options.now ?? Date.now()) - Number(timestamp) * 1000) <= toleranceMs;
}
