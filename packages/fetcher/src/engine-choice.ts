import type { FetchResult } from './http/types.js';
import type { PageRequest } from './page.js';

/** The request options that only the browser can honour, as far as engine choice is concerned. */
export interface BrowserOnlyOptions {
  actions?: readonly unknown[];
  screenshot?: unknown;
  waitFor?: number;
  mobile?: boolean;
  location?: { country?: string; languages?: string[] };
}

/**
 * Why `request` needs the browser whatever the page is (`options:actions`, `options:screenshot`,
 * `options:waitFor`, `options:mobile`, `options:location`), or `undefined`. The first reason wins.
 */
export function browserReasonForOptions(request: BrowserOnlyOptions): string | undefined {
  if (request.actions?.length) return 'options:actions';
  if (request.screenshot) return 'options:screenshot';
  if ((request.waitFor ?? 0) > 0) return 'options:waitFor';
  if (request.mobile) return 'options:mobile';
  if (request.location && (request.location.country !== undefined || request.location.languages?.length)) {
    return 'options:location';
  }
  return undefined;
}

/** Every browser-only option present (for the "engine does not support" warning when the engine is forced). */
export function browserOnlyFeatures(request: BrowserOnlyOptions): string[] {
  const features: string[] = [];
  if (request.actions?.length) features.push('actions');
  if (request.screenshot) features.push('screenshot');
  if ((request.waitFor ?? 0) > 0) features.push('waitFor');
  if (request.mobile) features.push('mobile');
  if (request.location && (request.location.country !== undefined || request.location.languages?.length)) {
    features.push('location');
  }
  return features;
}

/** The engine a request goes to, and why (`PageResult.engineReason`; `auto` finds its own reason per page). */
export interface EngineChoice {
  engine: string;
  reason: string;
}

/**
 * The one rule that picks a request's engine: the request's `engine`, else the fetcher's `configured` one. `http`
 * stays HTTP whatever the options (the browser-only ones are reported unsupported); `browser` and any engine of
 * `FetcherOptions.engines` are used as named; `auto` goes to the browser when an option only the browser honours is
 * set or the attempt is stealth, else takes the `auto` strategy. `blocked` is the reason of a stealth retry.
 */
export function chooseEngine(
  request: Pick<PageRequest, 'engine'> & BrowserOnlyOptions,
  configured: string,
  mode: 'basic' | 'stealth',
  blocked?: string,
): EngineChoice {
  const engine = request.engine ?? configured;
  if (engine === 'http') return { engine, reason: 'engine:http' };
  if (engine === 'browser') return { engine, reason: blocked ?? 'engine:browser' };
  if (engine !== 'auto') return { engine, reason: `engine:${engine}` };
  const optionsReason = browserReasonForOptions(request);
  if (optionsReason) return { engine: 'browser', reason: blocked ?? optionsReason };
  if (mode === 'stealth') return { engine: 'browser', reason: blocked ?? 'options:stealth' };
  return { engine: 'auto', reason: '' };
}

const CHALLENGE_MARKERS = [
  /<title>\s*(?:just a moment|attention required|please wait|access denied|one more step|are you a robot|security check)/i,
  /cf-chl-|_cf_chl_opt|challenge-platform\/h\//i,
  /captcha-delivery\.com|geo\.captcha-delivery/i,
  /px-captcha|perimeterx/i,
  /Incapsula incident ID|_Incapsula_Resource/i,
  /<h1>\s*Access Denied\s*<\/h1>[\s\S]{0,400}Reference #/i,
];
/**
 * The markers as one pattern: a page's head is read once, not once a marker (0.09 ms a page of the WCXB dev pages
 * instead of 0.14, on the thread that feeds the extraction pool, for every page of a crawl with `proxy: 'auto'`).
 */
const CHALLENGE_MARKER = new RegExp(CHALLENGE_MARKERS.map((marker) => `(?:${marker.source})`).join('|'), 'i');

/** How much of the page the challenge markers are looked for in, in characters (bytes when not decoded yet). */
const CHALLENGE_HEAD = 32_768;

/** The start of a body not decoded yet, as Latin-1: the markers are ASCII, whatever the page's charset. */
function asciiHead(body: Uint8Array): string {
  return Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, CHALLENGE_HEAD)).toString('latin1');
}

/**
 * Why a response looks like the site refused a bot (`blocked:403`, `blocked:429`, `blocked:challenge`), or
 * `undefined`. Drives `proxy: 'auto'`'s retry with stealth.
 */
export function blockedReason(
  result: Pick<FetchResult, 'status' | 'headers' | 'text' | 'undecodedText'> & { body?: Uint8Array },
): string | undefined {
  if (result.headers['cf-mitigated'] === 'challenge') return 'blocked:challenge';
  if (result.status === 403 || result.status === 429) return `blocked:${result.status}`;
  const head =
    result.text?.slice(0, CHALLENGE_HEAD) ?? (result.undecodedText && result.body ? asciiHead(result.body) : '');
  if (head && CHALLENGE_MARKER.test(head)) return 'blocked:challenge';
  return undefined;
}
