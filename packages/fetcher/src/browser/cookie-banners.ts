import { clearTimeout, setTimeout } from 'node:timers';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { dependencyFile } from '@crawlkit/options/lazy-module';
import { withinBudget } from '@crawlkit/options/within-budget';
import type { Page } from 'puppeteer-core';

import { raceAbort } from './abortable.js';

/** What cookie-banner handling did on a page. */
export interface ConsentOutcome {
  /** CMP recognised by autoconsent's rules (`Onetrust`, `Cookiebot`, ...), if any. */
  cmp?: string;
  /** True when autoconsent opted out through the CMP's own buttons. */
  optedOut: boolean;
  /** Overlays removed by the generic fallback. */
  removed: number;
}

/**
 * What a selector that matches nothing after the consent step adds to its action's error: the prompt the step
 * dismissed may have held the element. Undefined when the step did nothing.
 */
export function consentNoMatchHint(outcome: ConsentOutcome | undefined): string | undefined {
  if (!outcome || (!outcome.optedOut && outcome.removed === 0)) return undefined;
  const done: string[] = [];
  if (outcome.optedOut) done.push(`answered the page's cookie-consent prompt${outcome.cmp ? ` (${outcome.cmp})` : ''}`);
  if (outcome.removed === 1) done.push('removed a cookie-consent overlay');
  else if (outcome.removed > 1) done.push(`removed ${outcome.removed} cookie-consent overlays`);
  return (
    `blockAds (on by default) ${done.join(' and ')} before the actions ran: to act on the prompt yourself, set ` +
    'blockAds: false.'
  );
}

interface AutoconsentAssets {
  script: string;
  rules: unknown;
}

let assets: Promise<AutoconsentAssets> | undefined;
function autoconsentAssets(): Promise<AutoconsentAssets> {
  assets ??= (async () => {
    const require = createRequire(import.meta.url);
    // The package exports its module entries and rules, not the script for pages, which sits beside the entries.
    const script = dependencyFile(
      [
        join(import.meta.dirname, '../../node_modules/@duckduckgo/autoconsent/dist/autoconsent.playwright.js'),
        join(import.meta.dirname, '../../../../@duckduckgo/autoconsent/dist/autoconsent.playwright.js'),
      ],
      () => join(dirname(require.resolve('@duckduckgo/autoconsent')), 'autoconsent.playwright.js'),
    );
    const [source, rules] = await Promise.all([
      readFile(script, 'utf8'),
      readFile(require.resolve('@duckduckgo/autoconsent/rules/compact-rules.json'), 'utf8'),
    ]);
    return { script: source, rules: { compact: JSON.parse(rules) as unknown } };
  })();
  return assets;
}

const AUTOCONSENT_CONFIG = {
  enabled: true,
  autoAction: 'optOut',
  disabledCmps: [],
  enablePrehide: false,
  enableCosmeticRules: true,
  enableGeneratedRules: true,
  enableHeuristicDetection: true,
  detectRetries: 10,
  isMainWorld: true,
  prehideTimeout: 1000,
  logs: { lifecycle: false, rulesteps: false, detectionsteps: false, evals: false, errors: false, messages: false },
};

/** Root elements of common consent-management platforms; autoconsent only runs when one is in the page. */
const CMP_ROOTS = [
  '#onetrust-banner-sdk',
  '#onetrust-consent-sdk',
  '#CybotCookiebotDialog',
  '#usercentrics-root',
  '#usercentrics-cmp-ui',
  '#didomi-host',
  '#qc-cmp2-container',
  '#truste-consent-track',
  '.truste_box_overlay',
  '[id^="sp_message_container"]',
  '.fc-consent-root',
  '.osano-cm-window',
  '.cc-window',
  '.klaro',
  '#cmplz-cookiebanner-container',
  '.cky-consent-container',
  '#iubenda-cs-banner',
  '#termly-code-snippet-support',
  '#BorlabsCookieBox',
  '#cmpbox',
  '#axeptio_overlay',
  '#cookie-notice',
  '#moove_gdpr_cookie_info_bar',
  '#lanyard_root',
  '#ppms_cm_consent_popup',
  '.cookie-consent-banner',
].join(',');

/**
 * In-page fallback: removes fixed or sticky overlays about cookies or consent that cover part of the viewport, and
 * the scroll lock they put on the document. Returns how many were removed.
 */
const REMOVE_OVERLAYS = `(() => {
  const words = /cookie|consent|gdpr|datenschutz|einwilligung|rgpd|privacy settings/i;
  const buttons = /accept|agree|allow|reject|decline|got it|okay|\\bok\\b|continue|akzeptieren|accepter|aceptar/i;
  const area = innerWidth * innerHeight;
  let removed = 0;
  // Overlays sit near the top of the tree: looking 8 levels deep keeps this cheap on large pages.
  const candidates = [];
  const walk = (node, depth) => {
    for (const child of node.children) {
      candidates.push(child);
      if (depth < 8) walk(child, depth + 1);
    }
  };
  if (document.body) walk(document.body, 1);
  for (const el of candidates) {
    if (!el.isConnected) continue;
    const style = getComputedStyle(el);
    if (style.position !== 'fixed' && style.position !== 'sticky') continue;
    const rect = el.getBoundingClientRect();
    const share = (rect.width * rect.height) / area;
    if (share < 0.04) continue;
    const text = (el.innerText || '').slice(0, 3000);
    if (text.length > 2000) continue;
    if (!words.test(text) && !words.test(el.id + ' ' + el.className)) continue;
    const hasButton = Array.from(el.querySelectorAll('button,a,[role=button],input[type=button],input[type=submit]'))
      .some((b) => buttons.test(b.innerText || b.value || ''));
    if (!hasButton && share < 0.25) continue;
    el.remove();
    removed++;
  }
  if (removed) {
    for (const root of [document.documentElement, document.body]) {
      if (!root) continue;
      if (getComputedStyle(root).overflow === 'hidden') root.style.setProperty('overflow', 'auto', 'important');
      root.classList.remove('modal-open', 'no-scroll', 'noscroll', 'overflow-hidden', 'locked');
    }
  }
  return removed;
})()`;

/** In-page: -1 when a known CMP is present (cheap), else what `REMOVE_OVERLAYS` removed. */
const CMP_OR_REMOVE_OVERLAYS = `document.querySelector(${JSON.stringify(CMP_ROOTS)}) !== null ? -1 : ${REMOVE_OVERLAYS}`;

/**
 * Dismisses cookie-consent prompts: when the page shows signs of one, DuckDuckGo's autoconsent (rules for several
 * hundred CMPs, shipped in the package) opts out through the CMP's own buttons; then any remaining fixed overlay
 * about cookies or consent is removed. Bounded by `timeoutMs`, and ends as soon as `signal` (the load's) aborts, with
 * what it did so far; never throws.
 */
export async function dismissCookieBanners(
  page: Page,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ConsentOutcome> {
  const outcome: ConsentOutcome = { optedOut: false, removed: 0 };
  try {
    if (signal?.aborted) return outcome;
    // One round trip for the common page without a known CMP: the check and the fallback together.
    const removed = (await page.evaluate(CMP_OR_REMOVE_OVERLAYS)) as number;
    if (removed >= 0) {
      outcome.removed = removed;
      return outcome;
    }
    if (timeoutMs > 200) await runAutoconsent(page, outcome, Math.min(timeoutMs, 4_000), signal);
    if (signal?.aborted) return outcome;
    outcome.removed = (await page.evaluate(REMOVE_OVERLAYS)) as number;
  } catch {
    // A page that navigates or closes meanwhile keeps whatever state it has.
  }
  return outcome;
}

interface AutoconsentMessage {
  type?: string;
  cmp?: string;
  result?: boolean;
  id?: string;
  code?: string;
}

async function runAutoconsent(
  page: Page,
  outcome: ConsentOutcome,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { script, rules } = await autoconsentAssets();
  if (signal?.aborted) return;
  const send = (message: unknown) =>
    page
      .evaluate(`window.autoconsentReceiveMessage && window.autoconsentReceiveMessage(${JSON.stringify(message)})`)
      .catch(() => undefined);
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let detected = false;
  await page.exposeFunction('autoconsentSendMessage', async (raw: unknown) => {
    const message = (raw ?? {}) as AutoconsentMessage;
    switch (message.type) {
      case 'init':
        await send({ type: 'initResp', config: AUTOCONSENT_CONFIG, rules });
        return;
      case 'eval': {
        const result = await page.evaluate(message.code ?? 'undefined').catch(() => false);
        await send({ type: 'evalResp', id: message.id, result });
        return;
      }
      case 'cmpDetected':
      case 'popupFound':
        detected = true;
        if (message.cmp) outcome.cmp = message.cmp;
        return;
      case 'optOutResult':
        // The CMP's buttons have been pressed (or could not be): no need to wait for autoconsent's wrap-up.
        outcome.optedOut = message.result === true;
        finish();
        return;
      case 'autoconsentDone':
      case 'autoconsentError':
        finish();
        return;
    }
  });
  let check: NodeJS.Timeout | undefined;
  const onAbort = () => finish();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const started = page.evaluate(script);
    await (signal ? raceAbort(started, signal) : started);
    // Without a detection soon, there is no CMP autoconsent knows: leave the rest to the generic fallback.
    const quiet = new Promise<void>((resolve) => {
      check = setTimeout(() => {
        if (!detected) resolve();
      }, 1_200);
    });
    await withinBudget(Promise.race([finished, quiet]), timeoutMs, () => undefined);
  } finally {
    clearTimeout(check);
    signal?.removeEventListener('abort', onAbort);
    await page.removeExposedFunction('autoconsentSendMessage').catch(() => undefined);
  }
}
