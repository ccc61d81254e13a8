import { isBrowserError, type BrowserError } from '../browser/errors.js';
import type { PageResult } from '../page.js';
import { withoutFragment } from '../url-fragment.js';
import { renderingGain, type RenderJudge, type RenderVerdict } from '../render/judge.js';
import { judgePage } from './judging.js';
import type { EngineCall, PageEngine } from './page-engine.js';

const BROWSER_UNAVAILABLE = new Set(['BROWSER_NOT_FOUND', 'BROWSER_LAUNCH_FAILED', 'BROWSER_CONNECT_FAILED']);

/** Whether `error` says the browser cannot start here (not installed, failing to launch, or unreachable). */
export function isBrowserUnavailable(error: unknown): error is BrowserError {
  return isBrowserError(error) && BROWSER_UNAVAILABLE.has(error.code);
}

/**
 * The `auto` engine: each page over HTTP first, judged, and rendered only when its HTML lacks its content (or its
 * host was learned to need the browser, `hostNeeds`). A page served over HTTP although it looks client-rendered
 * (`renderIfNeeded: false`, the browser unavailable) says so in `clientRendered`; `engineEvidence` tells what the
 * page showed about its host.
 */
export class AutoEngine implements PageEngine {
  readonly name = 'auto';
  readonly renders = true;
  readonly #http: PageEngine;
  readonly #browser: PageEngine;
  readonly #judge: RenderJudge;

  constructor(http: PageEngine, browser: PageEngine, judge: RenderJudge) {
    this.#http = http;
    this.#browser = browser;
    this.#judge = judge;
  }

  async fetch<V extends RenderVerdict>(call: EngineCall<V>): Promise<PageResult<V>> {
    const { request } = call;
    const renders = request.renderIfNeeded !== false;
    let learned = renders && request.hostNeeds === 'browser';
    if (learned && !request.checkEngines) {
      try {
        return await this.#browser.fetch({ ...call, reason: 'js-required:host' });
      } catch (error) {
        if (!isBrowserUnavailable(error)) throw error;
        learned = false; // no browser: the page takes the HTTP path
      }
    }
    const plain = await this.#http.fetch({ ...call, reason: 'http:static' });
    // a host learned to need the browser has both pages judged and compared (`renderingGain`): count all of this one
    const verdict = await judgePage(request, plain, this.#judge, learned);
    const jsReason = verdict.reason;
    if (!jsReason && !learned) {
      if (verdict.contentChars !== undefined) plain.engineEvidence = 'http';
      return plain;
    }
    if (jsReason) plain.clientRendered = jsReason;
    if (!renders) return plain;
    let rendered: PageResult<V>;
    try {
      rendered = await this.#browser.fetch({ ...call, reason: jsReason ?? 'js-required:host' });
    } catch (error) {
      if (!isBrowserUnavailable(error)) throw error;
      if (!jsReason) return plain;
      plain.engineReason = `${jsReason}+browser-unavailable`;
      // What failed and how to fix it: the engine's reason alone told the user only that the browser was missing.
      plain.warnings = [...(plain.warnings ?? []), `The browser could not start: ${error.message}`];
      return plain;
    }
    // The browser ended on another page (a meta refresh, a script's redirect): comparing the two says nothing of
    // whether this host's pages need rendering.
    if (withoutFragment(rendered.url) !== withoutFragment(plain.url)) return rendered;
    const evidence = renderingGain(verdict, await judgePage(request, rendered, this.#judge, true));
    if (evidence) rendered.engineEvidence = evidence;
    return rendered;
  }

  /** Its engines are the fetcher's, which closes them. */
  async close(): Promise<void> {}
}
