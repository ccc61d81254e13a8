import { describe, expect, it } from 'vitest';

import { blockedReason, browserReasonForOptions } from './engine-choice.js';

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
  });
});
