import { describe, expect, it } from 'vitest';

import { unavailableFeatureWarnings } from './unavailable.js';

describe('unavailableFeatureWarnings', () => {
  it('names each feature that cannot exist locally, once', () => {
    const warnings = unavailableFeatureWarnings({
      formats: [{ type: 'audio' }, { type: 'video' }, { type: 'audio' }, { type: 'markdown' }],
      parsers: [{ type: 'pdf', mode: 'ocr' }],
      redactPII: true,
      profile: { name: 'shop' },
      threatProtection: { mode: 'zscaler' },
      auditMetadata: { username: 'ana' },
      domainTools: true,
    });
    expect(warnings).toHaveLength(8);
    expect(warnings.filter((w) => w.includes('audio'))).toHaveLength(1);
    for (const w of warnings) expect(w).toMatch(/^[A-Z].*\.$/);
    expect(warnings.join(' ')).toContain('not redacted');
  });

  it('says nothing for a request crawlkit serves in full', () => {
    expect(
      unavailableFeatureWarnings({
        formats: [{ type: 'markdown' }, { type: 'highlights', query: 'x' }],
        parsers: [{ type: 'pdf' }],
        redactPII: false,
        threatProtection: { mode: 'manual-only', blacklist: ['a.example'] },
      }),
    ).toEqual([]);
  });
});
