import { describe, expect, it } from 'vitest';

import { FORMAT_MODULES } from './registry.js';
import { unavailableOptionWarnings } from './unavailable.js';

describe('unavailableOptionWarnings', () => {
  it('names each option that cannot be had locally, in a sentence', () => {
    const warnings = unavailableOptionWarnings({
      parsers: [{ type: 'pdf', mode: 'ocr', blocks: true }],
      redactPII: { mode: 'fast' },
      profile: { name: 'shop' },
      threatProtection: { mode: 'zscaler' },
      auditMetadata: { username: 'ana' },
      domainTools: true,
    });
    expect(warnings).toHaveLength(6);
    for (const w of warnings) expect(w).toMatch(/^[A-Z].*\.$/);
    expect(warnings.join(' ')).toContain('not redacted');
    expect(warnings.join(' ')).toContain('profile "shop"');
  });

  it('says nothing for a request crawlkit serves in full', () => {
    expect(
      unavailableOptionWarnings({
        parsers: [{ type: 'pdf', mode: 'fast' }, { type: 'image' }],
        redactPII: false,
        threatProtection: { mode: 'manual-only', blacklist: ['a.example'] },
      }),
    ).toEqual([]);
  });
});

describe('the registry', () => {
  it('has a module for every 2026 format', () => {
    const types = FORMAT_MODULES.map((m) => m.type);
    for (const type of ['highlights', 'question', 'query', 'product', 'rawBase64', 'audio', 'video', 'menu']) {
      expect(types).toContain(type);
    }
  });
});
