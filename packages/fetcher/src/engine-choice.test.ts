import { describe, expect, it } from 'vitest';

import { blockedReason, browserReasonForOptions, chooseEngine } from './engine-choice.js';

describe('browserReasonForOptions', () => {
  it('names the first option that needs the browser', () => {
    expect(browserReasonForOptions({})).toBeUndefined();
    expect(browserReasonForOptions({ waitFor: 0, mobile: false, actions: [] })).toBeUndefined();
    expect(browserReasonForOptions({ actions: [{}], screenshot: {} })).toBe('options:actions');
    expect(browserReasonForOptions({ screenshot: {} })).toBe('options:screenshot');
    expect(browserReasonForOptions({ waitFor: 500 })).toBe('options:waitFor');
    expect(browserReasonForOptions({ mobile: true })).toBe('options:mobile');
    expect(browserReasonForOptions({ location: { country: 'DE' } })).toBe('options:location');
    expect(browserReasonForOptions({ location: { languages: ['fr-FR'] } })).toBe('options:location');
    expect(browserReasonForOptions({ location: {} })).toBeUndefined();
  });
});

describe('blockedReason', () => {
  it('flags refusals and challenge pages', () => {
    expect(blockedReason({ status: 200, headers: {}, text: '<title>Fine</title>' })).toBeUndefined();
    expect(blockedReason({ status: 404, headers: {}, text: '' })).toBeUndefined();
    expect(blockedReason({ status: 403, headers: {}, text: '' })).toBe('blocked:403');
    expect(blockedReason({ status: 429, headers: {}, text: '' })).toBe('blocked:429');
    expect(blockedReason({ status: 503, headers: { 'cf-mitigated': 'challenge' }, text: '' })).toBe(
      'blocked:challenge',
    );
    expect(blockedReason({ status: 200, headers: {}, text: '<html><head><title>Just a moment...</title>' })).toBe(
      'blocked:challenge',
    );
    expect(
      blockedReason({ status: 200, headers: {}, text: '<script src="https://geo.captcha-delivery.com/c.js">' }),
    ).toBe('blocked:challenge');
    // Each marker alone, whatever its letters' case; a reference too far after the heading is not one.
    const challenges = [
      '<TITLE> Attention Required! | Cloudflare</TITLE>',
      '<script>window._cf_chl_opt={}</script>',
      '<div class="cf-chl-widget">',
      '<script src="/cdn-cgi/challenge-platform/h/b/orchestrate">',
      '<div id="px-captcha"></div>',
      '<script>window._pxAppId="PerimeterX"</script>',
      'Request unsuccessful. Incapsula incident ID: 123',
      '<script src="/_Incapsula_Resource?SWJIYLWA=1">',
      "<h1>Access Denied</h1> You don't have permission. Reference #18.1",
    ];
    for (const text of challenges)
      expect(blockedReason({ status: 200, headers: {}, text }), text).toBe('blocked:challenge');
    const far = `<h1>Access Denied</h1>${' '.repeat(401)}Reference #18.1`;
    expect(blockedReason({ status: 200, headers: {}, text: far })).toBeUndefined();
    expect(blockedReason({ status: 200, headers: {}, text: '<title>Security tips</title>' })).toBeUndefined();
  });
});

describe('chooseEngine', () => {
  it('is the one rule: a forced engine, then browser-only options, then stealth, else the auto strategy', () => {
    expect(chooseEngine({}, 'auto', 'basic')).toEqual({ engine: 'auto', reason: '' });
    expect(chooseEngine({ screenshot: {} }, 'auto', 'basic')).toEqual({
      engine: 'browser',
      reason: 'options:screenshot',
    });
    expect(chooseEngine({}, 'auto', 'stealth')).toEqual({ engine: 'browser', reason: 'options:stealth' });
    expect(chooseEngine({}, 'auto', 'stealth', 'blocked:403')).toEqual({ engine: 'browser', reason: 'blocked:403' });
    // a forced HTTP engine stays on HTTP whatever the options (they are reported unsupported)
    expect(chooseEngine({ screenshot: {} }, 'http', 'stealth')).toEqual({ engine: 'http', reason: 'engine:http' });
    expect(chooseEngine({ engine: 'browser' }, 'http', 'basic')).toEqual({
      engine: 'browser',
      reason: 'engine:browser',
    });
    // an engine given to the fetcher is chosen by its name, browser-only options and all
    expect(chooseEngine({ engine: 'cache', mobile: true }, 'auto', 'basic')).toEqual({
      engine: 'cache',
      reason: 'engine:cache',
    });
  });
});
