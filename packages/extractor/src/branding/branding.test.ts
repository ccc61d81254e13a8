import { describe, expect, it } from 'vitest';

import { baseUnitOf, buildBranding } from './build-branding.js';
import { cleanFontName, parseFontStack, primaryFamily } from './fonts.js';
import { brandNameOf, logoScore, pickFavicon } from './images.js';
import { varColors } from './roles.js';
import type { BrandingSnapshot, LogoCandidate } from './snapshot.js';

function snapshot(over: Partial<BrandingSnapshot> = {}): BrandingSnapshot {
  return {
    url: 'https://www.acme-tools.com/products/planes',
    title: 'Planes',
    text: '',
    meta: { siteName: null, applicationName: null, ogImage: null, themeColor: null, colorScheme: null },
    icons: [],
    pageBackground: '#ffffff',
    samples: {},
    vars: [],
    textColors: [],
    linkColors: [],
    backgroundColors: [],
    borderColors: [],
    fontStacks: [],
    fontWeights: [],
    buttons: [],
    inputs: [],
    logos: [],
    spacingValues: [],
    gaps: [],
    radii: [],
    layout: { headerHeight: null, footerHeight: null, maxWidths: [] },
    transitions: { durations: [], easings: [] },
    ...over,
  };
}

const logo = (over: Partial<LogoCandidate>): LogoCandidate => ({
  kind: 'img',
  src: 'https://www.acme-tools.com/img/x.png',
  alt: '',
  hint: 'img',
  href: null,
  left: 500,
  top: 500,
  width: 120,
  height: 40,
  inHeader: false,
  inFooter: false,
  ...over,
});

describe('fonts', () => {
  it('parses computed stacks and cleans build-tool hashes', () => {
    expect(parseFontStack(`"__Inter_d65c78", "__Inter_Fallback_d65c78", system-ui, 'Segoe UI', sans-serif`)).toEqual([
      '__Inter_d65c78',
      '__Inter_Fallback_d65c78',
      'system-ui',
      'Segoe UI',
      'sans-serif',
    ]);
    expect(cleanFontName('__Inter_d65c78')).toBe('Inter');
    expect(cleanFontName('__Roboto_Mono_a1b2c3')).toBe('Roboto Mono');
    expect(cleanFontName('__Inter_Fallback_d65c78')).toBeUndefined();
    // Names that merely end in letters are not hashes.
    expect(cleanFontName('Playfair Display')).toBe('Playfair Display');
    expect(cleanFontName('Font_Awesome')).toBe('Font Awesome');
    expect(primaryFamily('system-ui, -apple-system, "Helvetica Neue", sans-serif')).toBe('Helvetica Neue');
    expect(primaryFamily('sans-serif')).toBe('sans-serif');
  });
});

describe('colour roles from custom properties', () => {
  it('matches exact role names, skips variants and keeps partial names as a fallback', () => {
    const vars = [
      { name: '--brand-blue', value: '#1d4ed8', color: '#1d4ed8' },
      { name: '--color-primary', value: '#0ea5e9', color: '#0ea5e9' },
      { name: '--primary-foreground', value: '#ffffff', color: '#ffffff' },
      { name: '--primary-hover', value: '#0284c7', color: '#0284c7' },
      { name: '--text-muted', value: '#6b7280', color: '#6b7280' },
      { name: '--destructive', value: '0 84% 60%', color: '#ef4444' },
      { name: '--spacing', value: '4px', color: null },
      { name: '--accent-500', value: '#f43f5e', color: '#f43f5e' },
    ];
    expect(varColors(snapshot({ vars }))).toEqual({
      primary: '#0ea5e9',
      textSecondary: '#6b7280',
      error: '#ef4444',
    });
  });
});

describe('colour roles from shadcn-style tokens', () => {
  it('reads background, foreground, muted-foreground and destructive', () => {
    const vars = [
      { name: '--background', value: '0 0% 100%', color: '#ffffff' },
      { name: '--foreground', value: '222.2 84% 4.9%', color: '#020817' },
      { name: '--primary', value: '221.2 83.2% 53.3%', color: '#3b82f6' },
      { name: '--primary-foreground', value: '210 40% 98%', color: '#f8fafc' },
      { name: '--muted-foreground', value: '215.4 16.3% 46.9%', color: '#64748b' },
      { name: '--destructive', value: '0 84.2% 60.2%', color: '#ef4444' },
      { name: '--color-blue-500', value: '#3b82f6', color: '#3b82f6' },
    ];
    expect(varColors(snapshot({ vars }))).toEqual({
      background: '#ffffff',
      textPrimary: '#020817',
      primary: '#3b82f6',
      textSecondary: '#64748b',
      error: '#ef4444',
    });
  });
});

describe('spacing', () => {
  it('finds the base unit most paddings and margins are multiples of', () => {
    expect(baseUnitOf([8, 16, 24, 32, 48, 8, 16, 4])).toBe(8);
    expect(baseUnitOf([4, 12, 20, 8, 28, 12])).toBe(4);
    expect(baseUnitOf([6, 12, 18, 24, 30])).toBe(6);
    expect(baseUnitOf([7, 13, 9, 11, 3])).toBe(4);
    expect(baseUnitOf([8])).toBeUndefined();
  });
});

describe('images and brand name', () => {
  it('prefers a home-linked, logo-named image in the header over other pictures', () => {
    const url = 'https://www.acme-tools.com/products/planes';
    const real = logo({
      href: 'https://www.acme-tools.com/',
      hint: 'img site-logo',
      inHeader: true,
      left: 20,
      top: 10,
    });
    const hero = logo({ width: 1200, height: 500, top: 80, left: 0, hint: 'img hero' });
    const footer = logo({ alt: 'Acme logo', inFooter: true, top: 3000 });
    const pixel = logo({ width: 1, height: 1, top: 0, left: 0, hint: 'img logo' });
    expect(logoScore(real, url, 'Acme')).toBeGreaterThan(logoScore(hero, url, 'Acme'));
    expect(logoScore(real, url, 'Acme')).toBeGreaterThan(logoScore(footer, url, 'Acme'));
    expect(logoScore(real, url, 'Acme')).toBeGreaterThan(logoScore(pixel, url, 'Acme'));
    const profile = buildBranding(snapshot({ logos: [hero, footer, pixel, real] }));
    expect(profile.images?.logo).toBe(real.src);
    expect(buildBranding(snapshot({ logos: [hero] })).images?.logo).toBeNull();
  });

  it('picks the declared favicon: icon before apple-touch-icon, SVG or the largest first', () => {
    const icons = [
      { rel: 'apple-touch-icon', href: 'https://x/apple.png', sizes: '180x180', type: null },
      { rel: 'icon', href: 'https://x/16.png', sizes: '16x16', type: 'image/png' },
      { rel: 'icon', href: 'https://x/48.png', sizes: '48x48', type: 'image/png' },
    ];
    expect(pickFavicon(snapshot({ icons }))).toBe('https://x/48.png');
    expect(
      pickFavicon(
        snapshot({ icons: [...icons, { rel: 'icon', href: 'https://x/i.svg', sizes: null, type: 'image/svg+xml' }] }),
      ),
    ).toBe('https://x/i.svg');
    expect(pickFavicon(snapshot({ icons: [icons[0]!] }))).toBe('https://x/apple.png');
    expect(pickFavicon(snapshot())).toBeNull();
  });

  it('names the brand from site metadata, the logo, the title or the host', () => {
    expect(brandNameOf(snapshot({ meta: { ...snapshot().meta, siteName: 'Acme' } }))).toBe('Acme');
    expect(brandNameOf(snapshot(), 'Acme Tools logo')).toBe('Acme Tools');
    expect(brandNameOf(snapshot({ title: 'Hand planes – Acme Tools' }))).toBe('Acme Tools');
    expect(brandNameOf(snapshot({ title: 'Shop | Northwind' }))).toBe('Shop');
    expect(brandNameOf(snapshot({ title: 'Hand planes' }))).toBe('Acme-tools');
  });
});

describe('buildBranding', () => {
  it('reads translucent text as the colour it shows over the page', () => {
    const profile = buildBranding(
      snapshot({
        textColors: [
          { value: '#000000de', weight: 3000 }, // rgba(0, 0, 0, 0.87)
          { value: '#00000099', weight: 900 }, // rgba(0, 0, 0, 0.6)
        ],
      }),
    );
    expect(profile.colors).toMatchObject({ textPrimary: '#212121', textSecondary: '#666666' });
  });

  it('does not take the browser default link blue of an unstyled page for a brand colour', () => {
    const profile = buildBranding(
      snapshot({
        linkColors: [{ value: '#0000ee', weight: 400 }],
        textColors: [{ value: '#000000', weight: 3000 }],
      }),
    );
    expect(profile.colors).toEqual({ background: '#ffffff', textPrimary: '#000000', link: '#0000ee' });
  });

  it('derives the colour scheme from the page background unless the page declares one', () => {
    expect(buildBranding(snapshot({ pageBackground: '#0b1020' })).colorScheme).toBe('dark');
    expect(buildBranding(snapshot({ pageBackground: '#f8fafc' })).colorScheme).toBe('light');
    expect(buildBranding(snapshot({ pageBackground: null })).colors?.background).toBe('#ffffff');
    const declared = snapshot({ pageBackground: '#ffffff', meta: { ...snapshot().meta, colorScheme: 'dark' } });
    expect(buildBranding(declared).colorScheme).toBe('dark');
  });

  it('takes primary from the primary button and secondary/accent from other hues, not tints', () => {
    const button = {
      text: 'Buy now',
      hint: 'button btn btn-primary',
      background: '#7c3aed',
      textColor: '#ffffff',
      borderColor: null,
      borderWidth: 0,
      radius: { topLeft: '6px', topRight: '6px', bottomRight: '6px', bottomLeft: '6px' },
      shadow: null,
      area: 4000,
      top: 300,
      inHeader: false,
      paddingX: 16,
      paddingY: 8,
    };
    const profile = buildBranding(
      snapshot({
        buttons: [{ ...button, text: 'Menu', hint: 'button menu-toggle', background: null, area: 900 }, button],
        backgroundColors: [
          { value: '#ffffff', weight: 1_000_000 },
          { value: '#a78bfa', weight: 90_000 }, // a tint of the primary
          { value: '#f97316', weight: 40_000 },
        ],
        linkColors: [{ value: '#0891b2', weight: 300 }],
        textColors: [
          { value: '#111827', weight: 5000 },
          { value: '#6b7280', weight: 800 },
        ],
      }),
    );
    expect(profile.colors).toMatchObject({
      primary: '#7c3aed',
      secondary: '#f97316',
      accent: '#0891b2',
      textPrimary: '#111827',
      textSecondary: '#6b7280',
      link: '#0891b2',
      background: '#ffffff',
    });
    expect(profile.components?.buttonPrimary).toEqual({
      background: '#7c3aed',
      textColor: '#ffffff',
      borderRadius: '6px',
    });
    // A menu toggle is not a secondary button.
    expect(profile.components?.buttonSecondary).toBeUndefined();

    const tab = { ...button, radius: { topLeft: '8px', topRight: '8px', bottomRight: '0px', bottomLeft: '0px' } };
    expect(buildBranding(snapshot({ buttons: [tab] })).components?.buttonPrimary).toMatchObject({
      borderRadius: '8px',
      borderRadiusCorners: '8px 8px 0px 0px',
    });
  });
});
