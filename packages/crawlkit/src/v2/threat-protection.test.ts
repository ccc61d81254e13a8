import { describe, expect, it } from 'vitest';

import { threatProtectionRefusal } from './threat-protection.js';

describe('threatProtectionRefusal', () => {
  const lists = {
    blacklist: ['bad.example', '*.tracker.example'],
    blockedTlds: ['zip'],
    whitelist: ['ok.tracker.example'],
  };

  it('refuses blacklisted hosts, their glob subdomains and blocked TLDs', () => {
    expect(threatProtectionRefusal('https://bad.example/x', lists)).toContain('blacklist');
    expect(threatProtectionRefusal('https://a.tracker.example/', lists)).toContain('*.tracker.example');
    expect(threatProtectionRefusal('https://files.zip/a', lists)).toContain('TLD');
    expect(threatProtectionRefusal('https://sub.bad.example/', lists)).toBeUndefined();
    expect(threatProtectionRefusal('https://good.example/', lists)).toBeUndefined();
  });

  it('lets the whitelist win, and enforces nothing in mode off or without options', () => {
    expect(threatProtectionRefusal('https://ok.tracker.example/', lists)).toBeUndefined();
    expect(threatProtectionRefusal('https://bad.example/', { ...lists, mode: 'off' })).toBeUndefined();
    expect(threatProtectionRefusal('https://bad.example/', undefined)).toBeUndefined();
    expect(threatProtectionRefusal('https://bad.example/', { ...lists, mode: 'normal' })).toContain('blacklist');
  });
});
