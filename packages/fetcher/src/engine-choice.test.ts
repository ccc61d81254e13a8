import { describe, expect, it } from 'vitest';

import { blockedReason, browserReasonForOptions, javascriptReason } from './engine-choice.js';

const html = (text: string, status = 200) => ({ status, contentType: 'text/html', text });

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

describe('javascriptReason', () => {
  it('leaves server-rendered pages to HTTP', () => {
    const article = `<html><head><title>x</title><script src="/a.js"></script></head><body><div id="root"><h1>Title</h1>
      <p>${'Plenty of server-rendered text. '.repeat(20)}</p></div>
      <noscript>Please enable JavaScript for comments.</noscript></body></html>`;
    expect(javascriptReason(html(article))).toBeUndefined();
  });

  it('detects empty bodies', () => {
    expect(javascriptReason(html(''))).toBe('js-required:empty-body');
    expect(javascriptReason(html('<html><head></head><body>  </body></html>'))).toBe('js-required:empty-body');
  });

  it('detects client-side app shells', () => {
    expect(javascriptReason(html('<body><div id="root"></div><script src="/main.js"></script></body>'))).toBe(
      'js-required:app-shell',
    );
    expect(javascriptReason(html('<body><div id="__next"> </div><p>Loading…</p></body>'))).toBe(
      'js-required:app-shell',
    );
    expect(javascriptReason(html('<body><app-root></app-root></body>'))).toBe('js-required:app-shell');
  });

  it('detects noscript walls', () => {
    const wall =
      '<body><noscript>You need to enable JavaScript to run this app.</noscript><div id="x">Hi</div><script>1</script></body>';
    expect(javascriptReason(html(wall))).toBe('js-required:noscript-wall');
    const sorry = '<body><noscript><p>This site requires JavaScript.</p></noscript><main></main></body>';
    expect(javascriptReason(html(sorry))).toBe('js-required:noscript-wall');
  });

  it('detects script-only bodies', () => {
    expect(javascriptReason(html('<body><div id="content"></div><script>render()</script></body>'))).toBe(
      'js-required:script-only',
    );
  });

  it('judges only successful HTML', () => {
    expect(javascriptReason(html('', 404))).toBeUndefined();
    expect(javascriptReason({ status: 200, contentType: 'application/json', text: '{}' })).toBeUndefined();
    expect(javascriptReason({ status: 200, contentType: 'application/pdf' })).toBeUndefined();
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
  });
});
