/** The frontier's only way out to the network: injected, so the engine's URL policy, timeouts and limits apply. */
export type FetchText = (
  url: string,
  init?: { signal?: AbortSignal; readAtMost?: number; timeoutMs?: number },
) => Promise<{
  url: string;
  status: number;
  contentType: string;
  body: Uint8Array;
  text?: string;
  /** The body was cut at `readAtMost` bytes. */
  truncated?: boolean;
}>;

/**
 * Why a robots.txt or sitemap could not be read, for a message: `answered 503` for an error status (429, 5xx), else
 * the fetch's error, its code first (`SCRAPE_TIMEOUT: Scrape timed out after 15000 ms`).
 */
export function unreadableReason(failure: { status: number } | { error: unknown }): string {
  if ('status' in failure) return `answered ${failure.status}`;
  const { code, message } = (failure.error ?? {}) as { code?: unknown; message?: unknown };
  // The reason sits inside a sentence: the message's own full stop would end it.
  const text = (typeof message === 'string' ? message : String(failure.error)).replace(/\.$/, '');
  return typeof code === 'string' ? `${code}: ${text}` : text;
}

/** Whether an error status means the file is there but could not be had now (429, 5xx), not that it is missing. */
export function isUnavailableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}
