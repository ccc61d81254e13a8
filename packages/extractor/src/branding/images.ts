import { siteHostname } from '@crawlkit/options/site-host';

import type { BrandingImages } from './profile.js';
import type { BrandingSnapshot, LogoCandidate } from './snapshot.js';

const isHomeLink = (href: string | null, pageUrl: string): boolean => {
  if (!href) return false;
  try {
    const target = new URL(href);
    const page = new URL(pageUrl);
    return target.origin === page.origin && /^\/?(index\.\w+)?$/.test(target.pathname) && !target.hash;
  } catch {
    return false;
  }
};

const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * How much a candidate looks like the site's logo: a link to the home page, "logo" or "brand" in its id, classes,
 * alt text or file name, the brand name in its alt text, a place in the header, top-left position and a plausible
 * size. Footer images, tracking pixels and huge hero pictures lose.
 */
export function logoScore(c: LogoCandidate, pageUrl: string, brand: string | undefined): number {
  let score = 0;
  if (isHomeLink(c.href, pageUrl)) score += 4;
  if (/logo|brand/.test(c.hint)) score += 4;
  if (/logo/i.test(c.alt)) score += 2;
  if (brand && c.alt && squash(c.alt).includes(squash(brand))) score += 2;
  if (c.inHeader) score += 2;
  if (c.inFooter) score -= 3;
  if (c.top < 200) score += 1;
  if (c.left < 400) score += 1;
  if (c.width < 12 || c.height < 12) score -= 6;
  if (c.width > 600 || c.height > 250) score -= 4;
  if (/avatar|icon-|sprite|banner|hero|ad[-_]|pixel/.test(c.hint)) score -= 2;
  return score;
}

export function pickLogo(snapshot: BrandingSnapshot, brand: string | undefined): LogoCandidate | undefined {
  let best: LogoCandidate | undefined;
  let bestScore = 3; // a candidate needs more than position alone
  for (const c of snapshot.logos) {
    const score = logoScore(c, snapshot.url, brand);
    if (score > bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}

const iconSize = (sizes: string | null) => {
  if (!sizes) return 0;
  if (/any/i.test(sizes)) return 1024;
  return Math.max(0, ...sizes.split(/\s+/).map((s) => Number(s.split(/x/i)[0]) || 0));
};

/** The declared favicon: `icon` before `shortcut icon` before `apple-touch-icon`, SVG or the largest size first. */
export function pickFavicon(snapshot: BrandingSnapshot): string | null {
  const rank = (rel: string) =>
    /(^|\s)icon(\s|$)/.test(rel) ? 0 : /shortcut/.test(rel) ? 1 : /apple/.test(rel) ? 2 : 3;
  const sorted = [...snapshot.icons].sort((a, b) => {
    const byRel = rank(a.rel) - rank(b.rel);
    if (byRel) return byRel;
    const svg = Number(b.type === 'image/svg+xml') - Number(a.type === 'image/svg+xml');
    return svg || iconSize(b.sizes) - iconSize(a.sizes);
  });
  return sorted[0]?.href ?? null;
}

/**
 * The brand's name: `og:site_name`, `application-name`, the logo's alt text without "logo", the part of the title
 * that matches the host name (or its shortest part), else the host name.
 */
export function brandNameOf(snapshot: BrandingSnapshot, logoAlt?: string): string | undefined {
  const host = (() => {
    try {
      return siteHostname(new URL(snapshot.url).hostname);
    } catch {
      return '';
    }
  })();
  if (snapshot.meta.siteName) return snapshot.meta.siteName;
  if (snapshot.meta.applicationName) return snapshot.meta.applicationName;
  const alt = logoAlt
    ?.replace(/\b(logo(type)?|home(page)?|go to|link to|brand)\b/gi, '')
    .replace(/[\s\-–—|:]+$|^[\s\-–—|:]+/g, '')
    .trim();
  if (alt && alt.length <= 40) return alt;
  const parts = snapshot.title
    .split(/\s+[|\-–—:·•»]\s+/)
    .map((p) => p.trim())
    .filter(Boolean);
  const hostWords = squash(host.split('.').slice(0, -1).join(''));
  const matching = parts.find((p) => hostWords && squash(p) && hostWords.includes(squash(p)));
  if (matching) return matching;
  if (parts.length > 1) return [...parts].sort((a, b) => a.length - b.length)[0];
  if (/^(\d+\.){3}\d+$|^localhost$/.test(host) && parts[0]) return parts[0];
  const label = host.split('.').slice(-2, -1)[0] ?? host;
  return label ? label.charAt(0).toUpperCase() + label.slice(1) : parts[0];
}

export function describeImages(snapshot: BrandingSnapshot, logo: LogoCandidate | undefined): BrandingImages {
  return {
    logo: logo?.src ?? null,
    favicon: pickFavicon(snapshot),
    ogImage: snapshot.meta.ogImage,
    logoHref: logo?.href ?? null,
    logoAlt: logo ? logo.alt || null : null,
  };
}
