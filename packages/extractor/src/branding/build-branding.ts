import { luminance, opaqueHex } from './color.js';
import { cleanStack, primaryFamily } from './fonts.js';
import { brandNameOf, describeImages, pickLogo } from './images.js';
import type { BrandingFont, BrandingProfile, BrandingSpacing, BrandingTypography } from './profile.js';
import { assignColors, describeComponents, pickButtons } from './roles.js';
import type { BrandingSnapshot, TextSample, Weighted } from './snapshot.js';

const pxString = (n: number) => `${Math.round(n * 100) / 100}px`;
const ratio = (s: TextSample | undefined) =>
  s?.lineHeight && s.fontSize ? Math.round((s.lineHeight / s.fontSize) * 100) / 100 : undefined;

function fonts(snapshot: BrandingSnapshot): BrandingFont[] {
  const { samples } = snapshot;
  const bodyFamily = primaryFamily((samples.p ?? samples.body)?.fontFamily ?? '');
  const headingFamily = primaryFamily((samples.h1 ?? samples.h2)?.fontFamily ?? '');
  const codeFamily = primaryFamily(samples.code?.fontFamily ?? '');
  const total = snapshot.fontStacks.reduce((sum, s) => sum + s.weight, 0) || 1;
  const usage = new Map<string, number>();
  for (const stack of snapshot.fontStacks) {
    const family = primaryFamily(stack.value);
    if (family) usage.set(family, (usage.get(family) ?? 0) + stack.weight / total);
  }
  for (const family of [bodyFamily, headingFamily, codeFamily]) if (family && !usage.has(family)) usage.set(family, 0);
  return [...usage.entries()]
    .filter(([family, share]) => share >= 0.02 || [bodyFamily, headingFamily, codeFamily].includes(family))
    .sort((a, b) => b[1] - a[1])
    .map(([family, share]) => ({
      family,
      role:
        family === bodyFamily
          ? 'body'
          : family === headingFamily
            ? 'heading'
            : family === codeFamily
              ? 'code'
              : 'other',
      usage: Math.round(share * 1000) / 1000,
    }));
}

function typography(snapshot: BrandingSnapshot): BrandingTypography {
  const { samples } = snapshot;
  const body = samples.p ?? samples.body;
  const heading = samples.h1 ?? samples.h2 ?? samples.h3;
  const out: BrandingTypography = { fontFamilies: {}, fontStacks: {}, fontSizes: {}, lineHeights: {}, fontWeights: {} };
  const families = out.fontFamilies!;
  const primary = primaryFamily(body?.fontFamily ?? '');
  if (primary) families.primary = primary;
  const headingFamily = primaryFamily(heading?.fontFamily ?? '');
  if (headingFamily) families.heading = headingFamily;
  const code = primaryFamily(samples.code?.fontFamily ?? '');
  if (code) families.code = code;

  const stacks = out.fontStacks!;
  if (samples.body) stacks.primary = stacks.body = cleanStack(samples.body.fontFamily);
  if (heading) stacks.heading = cleanStack(heading.fontFamily);
  if (samples.p) stacks.paragraph = cleanStack(samples.p.fontFamily);

  const sizes = out.fontSizes!;
  for (const key of ['h1', 'h2', 'h3', 'small'] as const) {
    const s = samples[key];
    if (s) sizes[key] = pxString(s.fontSize);
  }
  if (body) sizes.body = pxString(body.fontSize);

  const lineHeights = out.lineHeights!;
  const headingRatio = ratio(heading);
  if (headingRatio) lineHeights.heading = headingRatio;
  const bodyRatio = ratio(body);
  if (bodyRatio) lineHeights.body = bodyRatio;

  const weights = out.fontWeights!;
  const used = snapshot.fontWeights.map((w) => w.value);
  const regular = body?.fontWeight ?? 400;
  weights.regular = regular;
  const light = used.filter((w) => w < regular && w <= 300);
  if (light.length) weights.light = Math.max(...light);
  if (used.includes(500)) weights.medium = 500;
  const bold = [heading?.fontWeight ?? 0, ...used].filter((w) => w >= 600);
  if (bold.length) weights.bold = heading && heading.fontWeight >= 600 ? heading.fontWeight : Math.min(...bold);
  return out;
}

function mostCommon<T>(values: readonly T[]): T | undefined {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: T | undefined;
  let max = 0;
  for (const [v, n] of counts) if (n > max) [best, max] = [v, n];
  return best;
}

/**
 * The base unit: the largest of 8, 6, 5, 4 and 2 px that at least 70 % of the page's paddings and margins are
 * multiples of (4 when nothing fits).
 */
export function baseUnitOf(values: readonly number[]): number | undefined {
  const whole = values.filter((v) => v >= 2 && Math.abs(v - Math.round(v)) < 0.05).map(Math.round);
  if (whole.length < 3) return undefined;
  for (const unit of [8, 6, 5, 4, 2]) {
    const fits = whole.filter((v) => v % unit === 0).length;
    if (fits / whole.length >= 0.7) return unit;
  }
  return 4;
}

function spacing(snapshot: BrandingSnapshot, buttons: ReturnType<typeof pickButtons>): BrandingSpacing {
  const out: BrandingSpacing = {};
  const base = baseUnitOf(snapshot.spacingValues);
  if (base) out.baseUnit = base;
  const radius = snapshot.radii.find((r) => r.value !== '0px')?.value;
  if (radius) out.borderRadius = radius;
  const gutter = mostCommon(snapshot.gaps);
  if (gutter) out.gridGutter = gutter;
  const padding: Record<string, number> = {};
  if (buttons.primary) padding.button = buttons.primary.paddingX;
  if (snapshot.inputs[0]) padding.input = snapshot.inputs[0].paddingX;
  if (Object.keys(padding).length) out.padding = padding;
  return out;
}

const first = (list: readonly Weighted<string>[]) => list[0]?.value;

/**
 * A branding profile from what the collector measured in the rendered page (reference §12, without the language
 * model step): colour scheme and roles, fonts, typography, spacing, components, images and brand name. Pure and
 * deterministic: the same snapshot gives the same profile.
 */
export function buildBranding(snapshot: BrandingSnapshot): BrandingProfile {
  const buttons = pickButtons(snapshot.buttons);
  const colors = assignColors(snapshot, buttons);
  const background = colors.background ?? '#ffffff';
  const declared = snapshot.meta.colorScheme?.trim().split(/\s+/);
  const colorScheme: 'light' | 'dark' =
    declared?.length === 1 && (declared[0] === 'dark' || declared[0] === 'light')
      ? declared[0]
      : luminance(opaqueHex(background)) < 0.35
        ? 'dark'
        : 'light';

  const preliminaryName = snapshot.meta.siteName ?? snapshot.meta.applicationName ?? undefined;
  const logo = pickLogo(snapshot, preliminaryName);
  const brandName = brandNameOf(snapshot, logo?.alt);
  const images = describeImages(snapshot, logo);

  const profile: BrandingProfile = { colorScheme };
  if (brandName) profile.brandName = brandName;
  profile.logo = images.logo ?? null;
  profile.fonts = fonts(snapshot);
  profile.colors = colors;
  profile.typography = typography(snapshot);
  profile.spacing = spacing(snapshot, buttons);
  profile.components = describeComponents(snapshot, buttons, background);
  profile.images = images;

  const duration = first(snapshot.transitions.durations);
  const easing = first(snapshot.transitions.easings);
  if (duration || easing) {
    profile.animations = {};
    if (duration) profile.animations.transitionDuration = duration;
    if (easing) profile.animations.easing = easing;
  }
  const layout: NonNullable<BrandingProfile['layout']> = {};
  if (snapshot.layout.headerHeight) layout.headerHeight = pxString(snapshot.layout.headerHeight);
  if (snapshot.layout.footerHeight) layout.footerHeight = pxString(snapshot.layout.footerHeight);
  const maxWidth = first(snapshot.layout.maxWidths);
  if (maxWidth) layout.grid = { maxWidth };
  if (Object.keys(layout).length) profile.layout = layout;
  return profile;
}
