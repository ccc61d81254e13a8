import type { FetchResult } from './http/types.js';

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

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const NOSCRIPT_WALL =
  /\b(?:enable|turn on|activate|allow|switch on)\s+(?:your\s+)?javascript\b|\bjavascript\s+(?:is\s+)?(?:required|disabled|needed|turned off|must be enabled|is not enabled)|\b(?:requires?|needs?)\s+javascript\b|without\s+javascript\b/i;
const APP_SHELL =
  /<(?:div|main|section)\b[^>]*\bid\s*=\s*["']?(?:root|app|__next|__nuxt|___gatsby|svelte|q-app|ember-app|react-root|main-app)["']?[^>]*>\s*<\/(?:div|main|section)>|<app-root\b[^>]*>\s*<\/app-root>/i;
const SCRIPT_TAG = /<script\b/i;

/** Text a reader would see: the HTML without comments, scripts, styles, templates, noscript and tags. */
export function visibleText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|template|noscript|svg|head)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function noscriptText(html: string): string {
  const parts: string[] = [];
  for (const match of html.matchAll(/<noscript\b[^>]*>([\s\S]*?)<\/noscript\s*>/gi)) parts.push(match[1] ?? '');
  return parts.join(' ').replace(/<[^>]*>/g, ' ');
}

/**
 * Why the page fetched over plain HTTP needs JavaScript to show its content, or `undefined` when the HTML is
 * enough. Only successful (2xx) HTML responses are judged:
 * - `js-required:empty-body`: nothing at all in the body;
 * - `js-required:app-shell`: an empty client-side mount point (`<div id="root"></div>`, `__next`, `<app-root>`,
 *   ...) and almost no text;
 * - `js-required:noscript-wall`: a `<noscript>` asking to enable JavaScript and under 300 characters of other text;
 * - `js-required:script-only`: scripts and (almost) no text.
 */
export function javascriptReason(result: Pick<FetchResult, 'status' | 'contentType' | 'text'>): string | undefined {
  if (result.status < 200 || result.status >= 300) return undefined;
  const html = result.text;
  if (html === undefined) return undefined;
  if (!HTML_TYPES.has(result.contentType) && !(result.contentType === '' && /^\s*</.test(html))) return undefined;
  if (html.trim() === '') return 'js-required:empty-body';
  const text = visibleText(html);
  const hasScript = SCRIPT_TAG.test(html);
  if (APP_SHELL.test(html) && text.length < 200) return 'js-required:app-shell';
  if (text.length < 300 && NOSCRIPT_WALL.test(noscriptText(html))) return 'js-required:noscript-wall';
  if (text.length === 0 && !hasScript) return 'js-required:empty-body';
  if (hasScript && text.length < 40) return 'js-required:script-only';
  return undefined;
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
 * Why a response looks like the site refused a bot (`blocked:403`, `blocked:429`, `blocked:challenge`), or
 * `undefined`. Drives `proxy: 'auto'`'s retry with stealth.
 */
export function blockedReason(result: Pick<FetchResult, 'status' | 'headers' | 'text'>): string | undefined {
  if (result.headers['cf-mitigated'] === 'challenge') return 'blocked:challenge';
  if (result.status === 403 || result.status === 429) return `blocked:${result.status}`;
  const head = result.text?.slice(0, 32_768) ?? '';
  if (head && CHALLENGE_MARKERS.some((marker) => marker.test(head))) return 'blocked:challenge';
  return undefined;
}
