import { redactUrl, type PageResult, type UndecodedText } from '@crawlkit/fetcher';

import type { ActionResults } from '../v2/types.js';
import type { TellWarning } from '../warning-codes.js';
import { redirectWithoutTargetNote } from './redirect-note.js';
import { signInRedirectNote } from './sign-in-redirect.js';
import type { StoredCachePolicy } from './revalidation.js';

/** A page as fetched, in the form the page cache keeps: what a cache hit serves in place of a fetch. */
export interface FetchedPage {
  url: string;
  status: number;
  contentType: string;
  headers: Record<string, string>;
  charset?: string;
  /** Decoded text of textual content. */
  text?: string;
  /** Raw bytes of binary content (PDF), or of text not decoded yet (`undecodedText`). */
  body?: Uint8Array;
  /** Set when `body` is text left undecoded by the fetch, decoded where it is extracted. */
  undecodedText?: UndecodedText;
  screenshot?: string;
  actions?: ActionResults;
  engine: 'http' | 'browser';
  engineReason?: string;
  /** The render judge's reason, for a page served over HTTP although it looks client-rendered. */
  clientRendered?: string;
  proxyUsed: 'basic' | 'stealth';
  /** The fetch's notes for the document's `warning` (a cut screenshot). */
  warnings?: string[];
  /**
   * What the request asked of the browser and the engine used could not do (`mobile` over HTTP): a copy without it
   * answers no engine that can do it (`cache-lookup.ts`).
   */
  unsupportedFeatures?: string[];
  /** The response's caching rules, kept in the page cache when a refetch can be conditional (`revalidation.ts`). */
  cachePolicy?: StoredCachePolicy;
  /** When the page cache first stored this version of the page (a 304 keeps it): what its kept extraction is of. */
  fetchedAt?: number;
}

/**
 * The page a fetch of `askedUrl` returned, with its notes for the document's `warning`; the notes that have a warning
 * code (a redirect without a target, a sign-in page) are told to `tell` as well.
 */
export function fetchedPage(result: PageResult<never> | PageResult, askedUrl: string, tell: TellWarning): FetchedPage {
  const page: FetchedPage = {
    url: result.url,
    status: result.status,
    contentType: result.contentType,
    headers: result.headers,
    engine: result.engine,
    engineReason: result.engineReason,
    proxyUsed: result.proxyUsed,
  };
  if (result.clientRendered !== undefined) page.clientRendered = result.clientRendered;
  if (result.charset !== undefined) page.charset = result.charset;
  if (result.text !== undefined) page.text = result.text;
  else page.body = result.body;
  if (result.undecodedText) page.undecodedText = result.undecodedText;
  if (result.screenshot !== undefined) page.screenshot = result.screenshot;
  if (result.actions !== undefined) page.actions = result.actions;
  const warnings = [...(result.warnings ?? [])];
  if (result.unsupportedFeatures?.length) {
    page.unsupportedFeatures = result.unsupportedFeatures;
    warnings.push(
      `The engine used does not support the following features: ${result.unsupportedFeatures.join(', ')} -- ` +
        'your scrape may be partial.',
    );
  }
  const redirect = redirectWithoutTargetNote(result.status, result.headers);
  if (redirect) {
    warnings.push(redirect);
    tell('REDIRECT_WITHOUT_LOCATION', `${redactUrl(result.url)}: ${redirect}`);
  }
  const signIn = signInRedirectNote(askedUrl, result.url);
  if (signIn) {
    warnings.push(signIn);
    tell('SIGN_IN_REDIRECT', signIn);
  }
  if (warnings.length) page.warnings = warnings;
  return page;
}
