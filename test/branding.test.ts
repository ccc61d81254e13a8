/**
 * The branding format end to end: v2 bodies through the real `Crawlkit`, pages rendered by real Chromium from the
 * fixture site (`fixtures/site/branding/`: a light page with plain CSS, a dark page with hashed Next.js-style font
 * names and an inline SVG logo, a page built from CSS custom properties with modern colour syntax), whose colours,
 * fonts and logo are known.
 */
import { Crawlkit, type Document, type ErrorResponse } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { data, ISOLATED_ARGS } from './helpers/scrape.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';

// Chromium may only reach the fixture server.
const env = useFixtureEngine({ crawlkit: { store: 'memory', browser: { args: ISOLATED_ARGS }, timeoutMs: 30_000 } });

const HEX = /^#[0-9a-f]{6}$/;

function hue(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

/** What the reference's own branding tests check of any profile. */
function expectWellFormed(branding: NonNullable<Document['branding']>) {
  expect(['light', 'dark']).toContain(branding.colorScheme);
  for (const value of Object.values(branding.colors ?? {})) expect(value).toMatch(HEX);
  const baseUnit = branding.spacing?.baseUnit as number;
  expect(baseUnit).toBeGreaterThan(0);
  expect(baseUnit).toBeLessThanOrEqual(128);
  for (const font of branding.fonts ?? []) expect(font.family).not.toMatch(/__|_[0-9a-f]{6}$|Fallback/);
}

describe('branding', () => {
  it('reads a light page: colours by role, fonts, typography, spacing, components, logo and favicon', async () => {
    const doc = data(await env.ck.scrape({ url: `${env.server.url}/branding/light.html`, formats: ['branding'] }));
    const b = doc.branding!;
    expectWellFormed(b);
    expect(doc.markdown).toBeUndefined();
    expect(doc.actions).toBeUndefined(); // the collector's own return value is not shown
    expect(doc.metadata.engine).toBe('browser');

    expect(b.colorScheme).toBe('light');
    expect(b.brandName).toBe('Maple & Co');
    expect(b.colors).toMatchObject({
      primary: '#e4572e',
      background: '#ffffff',
      textPrimary: '#1f2937',
      textSecondary: '#6b7280',
      link: '#2563eb',
    });
    expect(['#14b8a6', '#2563eb']).toContain(b.colors!.secondary);
    expect(['#14b8a6', '#2563eb']).toContain(b.colors!.accent);

    expect(b.fonts?.slice(0, 3)).toEqual([
      expect.objectContaining({ family: 'Source Sans Pro', role: 'body' }),
      expect.objectContaining({ family: 'Playfair Display', role: 'heading' }),
      expect.objectContaining({ family: 'JetBrains Mono', role: 'code' }),
    ]);
    expect(b.typography).toMatchObject({
      fontFamilies: { primary: 'Source Sans Pro', heading: 'Playfair Display', code: 'JetBrains Mono' },
      fontStacks: { heading: ['Playfair Display', 'Georgia', 'serif'] },
      fontSizes: { h1: '48px', h2: '32px', h3: '24px', body: '16px', small: '14px' },
      lineHeights: { body: 1.5, heading: 1.17 },
      fontWeights: { regular: 400, bold: 700 },
    });
    expect(b.spacing).toMatchObject({ baseUnit: 8, borderRadius: '8px' });
    expect(b.components).toMatchObject({
      buttonPrimary: { background: '#e4572e', textColor: '#ffffff', borderRadius: '8px' },
      buttonSecondary: { textColor: '#e4572e', borderColor: '#e4572e', borderRadius: '8px' },
      input: { borderColor: '#d1d5db', focusBorderColor: '#e4572e', borderRadius: '8px' },
    });
    expect(b.components?.buttonPrimary?.shadow).toMatch(/rgba\(0, 0, 0, 0\.1\)/);

    expect(b.images).toEqual({
      logo: `${env.server.url}/branding/maple-logo.svg`,
      favicon: `${env.server.url}/branding/maple-favicon.svg`,
      ogImage: `${env.server.url}/branding/maple-og.jpg`,
      logoHref: `${env.server.url}/`,
      logoAlt: 'Maple & Co logo',
    });
    expect(b.logo).toBe(b.images!.logo);
    expect(b.layout).toMatchObject({ headerHeight: '72px', grid: { maxWidth: '960px' } });
    expect(b.animations).toEqual({ transitionDuration: '0.2s', easing: 'ease-in-out' });
    // No model is configured: everything measurable is there, personality is not.
    expect(b.personality).toBeUndefined();
  }, 60_000);

  it('reads a dark page with hashed font names and an inline SVG logo', async () => {
    const doc = data(await env.ck.scrape({ url: `${env.server.url}/branding/dark.html`, formats: ['branding'] }));
    const b = doc.branding!;
    expectWellFormed(b);
    expect(b.colorScheme).toBe('dark');
    expect(b.brandName).toBe('Nightjar');
    expect(b.colors).toMatchObject({
      primary: '#8b5cf6',
      accent: '#22d3ee',
      background: '#0b1020',
      textPrimary: '#e5e7eb',
      textSecondary: '#9ca3af',
      link: '#22d3ee',
    });
    // A lighter tint of the primary (the code colour) is not another brand colour.
    expect(b.colors!.secondary).not.toBe('#a78bfa');
    expect(b.typography?.fontFamilies).toEqual({
      primary: 'IBM Plex Sans',
      heading: 'Space Grotesk',
      code: 'Fira Code',
    });
    expect(b.typography?.fontWeights).toMatchObject({ regular: 400, bold: 800 });
    expect(b.spacing).toMatchObject({ baseUnit: 4, borderRadius: '9999px' });
    expect(b.components?.buttonPrimary).toMatchObject({ background: '#8b5cf6', textColor: '#ffffff' });
    expect(b.components?.buttonSecondary).toMatchObject({ background: '#1f2937', borderColor: '#374151' });

    expect(b.images?.logo).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(b.images!.logo!.split(',')[1]!, 'base64').toString('utf8');
    expect(svg).toContain('<path d="M4 28 L18 4 L32 28 Z" fill="#8b5cf6"');
    expect(b.images).toMatchObject({
      favicon: `${env.server.url}/branding/nightjar-64.png`, // the largest declared icon
      ogImage: null,
      logoHref: `${env.server.url}/`,
      logoAlt: 'Nightjar',
    });
  }, 60_000);

  it('reads roles from CSS custom properties, resolving oklch() and hsl() to hex', async () => {
    const doc = data(await env.ck.scrape({ url: `${env.server.url}/branding/vars.html`, formats: ['branding'] }));
    const b = doc.branding!;
    expectWellFormed(b);
    expect(b.colorScheme).toBe('light');
    expect(b.brandName).toBe('Lumen');
    const primary = b.colors!.primary!;
    expect(hue(primary)).toBeGreaterThan(120); // oklch(0.62 0.19 150) is a green
    expect(hue(primary)).toBeLessThan(165);
    expect(b.colors).toMatchObject({
      secondary: '#f59e0b',
      background: '#fafaf9',
      textPrimary: '#1c1917',
      textSecondary: '#78716c',
      link: primary,
      success: '#16a34a',
      warning: '#d97706',
      error: '#dc2626',
    });
    expect(hue(b.colors!.accent!)).toBeCloseTo(330, -1); // hsl(330 81% 60%)
    expect(b.fonts?.map((f) => f.family)).toEqual(['Manrope', 'IBM Plex Mono']);
    expect(b.spacing).toMatchObject({ baseUnit: 8, borderRadius: '12px' });
    expect(b.components).toMatchObject({
      buttonPrimary: { background: primary, textColor: '#ffffff', borderRadius: '12px' },
      buttonSecondary: { background: '#f59e0b', textColor: '#1c1917' },
      input: { borderColor: '#d6d3d1', focusBorderColor: primary },
    });
    // The logo is a CSS background of the home link; the favicon the largest `icon`.
    expect(b.images).toMatchObject({
      logo: `${env.server.url}/branding/lumen-logo.svg`,
      favicon: `${env.server.url}/branding/lumen-192.png`,
      ogImage: 'https://cdn.lumen.test/og/home.png',
      logoHref: `${env.server.url}/`,
    });
  }, 60_000);

  it('works alongside other formats and the caller’s own actions, whose results stay untouched', async () => {
    const doc = data(
      await env.ck.scrape({
        url: `${env.server.url}/branding/light.html`,
        formats: ['markdown', 'branding'],
        actions: [{ type: 'executeJavascript', script: 'document.title' }],
      }),
    );
    expect(doc.markdown).toContain('Bread baked before sunrise');
    expect(doc.branding?.colors?.primary).toBe('#e4572e');
    expect(doc.actions?.javascriptReturns).toEqual([{ type: 'string', value: 'Fresh bread daily | Maple & Co' }]);
  }, 60_000);
});

describe('branding of what is not an HTML page', () => {
  it('returns the document without branding and says why', async () => {
    const doc = data(
      await env.ck.scrape({ url: `${env.server.url}/files/manual.pdf`, formats: ['markdown', 'branding'] }),
    );
    expect(doc.markdown?.length).toBeGreaterThan(0);
    expect(doc.branding).toBeUndefined();
    expect(doc.warning).toMatch(
      /Branding could not be measured: the page was not rendered as HTML \(application\/pdf\)/,
    );
  }, 60_000);
});

describe('branding without a browser', () => {
  it('fails with SCRAPE_BRANDING_NOT_SUPPORTED and says how to get one', async () => {
    const noBrowser = new Crawlkit({ store: 'memory', browser: { executablePath: '/nonexistent/chromium' } });
    try {
      const response = await noBrowser.scrape({ url: `${env.server.url}/branding/light.html`, formats: ['branding'] });
      expect(response).toMatchObject({ success: false, code: 'SCRAPE_BRANDING_NOT_SUPPORTED' });
      expect((response as ErrorResponse).error).toMatch(/^Branding extraction requires a browser\. .*chromium/i);
      // Other formats still work over HTTP.
      expect(data(await noBrowser.scrape({ url: `${env.server.url}/branding/light.html` })).markdown).toContain(
        'Bread',
      );
    } finally {
      await noBrowser.close();
    }
  });
});
