import { flatten, isChromatic, isDistinct, isOtherHue, luminance, opaqueHex } from './color.js';
import type { BrandingButton, BrandingColors, BrandingComponents, BrandingInput } from './profile.js';
import type { ButtonSample, BrandingSnapshot, InputSample, Weighted } from './snapshot.js';

/** Which role a custom property name declares, by its words (`--color-primary`, `--brand`, `--text-muted`, ...). */
const VAR_ROLES: { role: keyof BrandingColors; words: RegExp }[] = [
  {
    role: 'textSecondary',
    words: /^(muted|text-muted|muted-text|muted-foreground|text-secondary|secondary-text|text-light|subtle-text)$/,
  },
  { role: 'primary', words: /^(primary|brand|main)$/ },
  { role: 'secondary', words: /^secondary$/ },
  { role: 'accent', words: /^(accent|highlight|tertiary)$/ },
  { role: 'background', words: /^(background|bg|surface|page|canvas|body-bg|page-bg)$/ },
  { role: 'textPrimary', words: /^(text|foreground|fg|body|ink|body-text|text-primary|primary-text)$/ },
  { role: 'link', words: /^link$/ },
  { role: 'success', words: /^(success|positive|ok)$/ },
  { role: 'warning', words: /^(warning|warn|caution)$/ },
  { role: 'error', words: /^(error|danger|destructive|negative|critical)$/ },
];
// Words that make a property a variant of a role rather than the role itself (`--primary-foreground`, `--brand-500`).
const VARIANT =
  /^(foreground|fg|contrast|hover|active|focus|light|lighter|dark|darker|soft|subtle|muted|border|ring|text|\d+)$/;
const NOISE = /^(color|colour|clr|c|theme|ui|site)$/;

/**
 * Colours named by the page's own custom properties, by role: an exact name (`--primary`, `--color-text-muted`)
 * wins over a name that only contains a role word (`--brand-blue`); variants (`--primary-hover`) are skipped.
 */
export function varColors(snapshot: BrandingSnapshot): BrandingColors {
  const out: BrandingColors = {};
  const rank = new Map<string, number>();
  for (const v of snapshot.vars) {
    if (!v.color || v.color.length !== 7) continue;
    const words = v.name
      .replace(/^--/, '')
      .toLowerCase()
      .split(/[-_]+/)
      .filter((w) => w && !NOISE.test(w));
    if (words.length === 0) continue;
    const joined = words.join('-');
    let match = VAR_ROLES.find((r) => r.words.test(joined));
    let score = 2;
    if (!match) {
      if (words.some((w) => VARIANT.test(w))) continue;
      match = VAR_ROLES.find((r) => words.some((w) => r.words.test(w)));
      score = 1;
    }
    if (!match) continue;
    const role = match.role as string;
    if ((rank.get(role) ?? 0) < score) {
      out[role] = v.color;
      rank.set(role, score);
    }
  }
  return out;
}

const isNeutralButton = (b: ButtonSample) => !b.background || b.background.length !== 7 || !isChromatic(b.background);

function buttonScore(b: ButtonSample): number {
  let score = Math.min(b.area, 40_000) / 4_000;
  if (/primary|cta|main/.test(b.hint)) score += 20;
  if (/secondary|outline|ghost|tertiary|link|close|icon|toggle|menu/.test(b.hint)) score -= 15;
  if (!isNeutralButton(b)) score += 10;
  if (b.text.length === 0) score -= 10;
  return score;
}

/** The primary button (the most prominent solid, saturated one) and a secondary one that looks different. */
export function pickButtons(buttons: readonly ButtonSample[]): { primary?: ButtonSample; secondary?: ButtonSample } {
  const candidates = buttons.filter((b) => b.text.length > 0 || b.area > 400);
  if (candidates.length === 0) return {};
  const ranked = [...candidates].sort((a, b) => buttonScore(b) - buttonScore(a));
  const primary = ranked[0]!;
  const looksDifferent = (b: ButtonSample) =>
    b !== primary &&
    (b.background ?? 'none') !== (primary.background ?? 'none') &&
    !(b.background && primary.background && !isDistinct(opaqueHex(b.background), opaqueHex(primary.background)));
  const secondary =
    candidates.find((b) => /secondary|outline|ghost/.test(b.hint) && b !== primary) ??
    candidates.find((b) => looksDifferent(b) && !/close|icon|toggle|menu/.test(b.hint));
  return secondary ? { primary, secondary } : { primary };
}

function radiusOf(corners: ButtonSample['radius']): Pick<BrandingButton, 'borderRadius' | 'borderRadiusCorners'> {
  const values = [corners.topLeft, corners.topRight, corners.bottomRight, corners.bottomLeft];
  if (values.every((v) => v === values[0])) return { borderRadius: values[0]! };
  return { borderRadius: corners.topLeft, borderRadiusCorners: values.join(' ') };
}

export function describeButton(b: ButtonSample, pageBackground: string): BrandingButton {
  const out: BrandingButton = {};
  out.background = b.background ? opaqueHex(b.background) : pageBackground;
  if (b.textColor) out.textColor = opaqueHex(b.textColor);
  if (b.borderColor && b.borderWidth > 0) out.borderColor = opaqueHex(b.borderColor);
  Object.assign(out, radiusOf(b.radius));
  if (b.shadow) out.shadow = b.shadow;
  return out;
}

export function describeInput(i: InputSample, pageBackground: string): BrandingInput {
  const out: BrandingInput = describeButton(
    { ...i, text: '', hint: '', area: 0, top: 0, inHeader: false, paddingY: 0 },
    pageBackground,
  );
  if (i.focusBorderColor && i.focusBorderColor !== i.borderColor) out.focusBorderColor = opaqueHex(i.focusBorderColor);
  return out;
}

// Colours an unstyled page gets from the browser (link, visited link, mark): not chosen by the brand.
const BROWSER_DEFAULTS = new Set(['#0000ee', '#551a8b', '#ffff00']);

const heaviest = (list: readonly Weighted<string>[], keep: (hex: string) => boolean) =>
  list.find((c) => c.value.length === 7 && keep(c.value))?.value;

/**
 * Colour roles: the page's own custom properties first, then what the rendered page shows. Primary is the primary
 * button's fill when saturated, else the saturated colour with the most weight (area of backgrounds, length of
 * borders, characters of links); secondary and accent are the next saturated colours distinct from it.
 */
export function assignColors(snapshot: BrandingSnapshot, buttons: ReturnType<typeof pickButtons>): BrandingColors {
  const named = varColors(snapshot);
  const background = named.background ?? (snapshot.pageBackground ? opaqueHex(snapshot.pageBackground) : '#ffffff');
  const colors: BrandingColors = {};
  // Translucent text (`rgba(0, 0, 0, 0.87)`) is the colour it shows as over the page.
  const merge = (list: readonly Weighted<string>[]): Weighted<string>[] => {
    const sums = new Map<string, number>();
    for (const c of list) {
      const hex = flatten(c.value, background);
      sums.set(hex, (sums.get(hex) ?? 0) + c.weight);
    }
    return [...sums.entries()].map(([value, weight]) => ({ value, weight })).sort((a, b) => b.weight - a.weight);
  };
  const textColors = merge(snapshot.textColors);
  const linkColors = merge(snapshot.linkColors);

  // Saturated colours by weight: backgrounds (area), borders, link and heading text (characters x 400 px²).
  const weights = new Map<string, number>();
  const bump = (hex: string | null | undefined, weight: number) => {
    if (!hex || hex.length !== 7 || !isChromatic(hex) || BROWSER_DEFAULTS.has(hex)) return;
    weights.set(hex, (weights.get(hex) ?? 0) + weight);
  };
  for (const c of snapshot.backgroundColors) bump(c.value, c.weight);
  for (const c of snapshot.borderColors) bump(c.value, c.weight * 4);
  // Body text colours are not brand colours, even when slightly tinted; coloured headings or labels are.
  const bodyText = new Set(textColors.slice(0, 2).map((c) => c.value));
  for (const c of linkColors) bump(c.value, c.weight * 100);
  for (const c of textColors) if (!bodyText.has(c.value)) bump(c.value, c.weight * 100);
  for (const b of snapshot.buttons) bump(b.background, b.area * 4);
  bump(snapshot.meta.themeColor, 20_000);
  const chromatic = [...weights.entries()].sort((a, b) => b[1] - a[1]).map(([hex]) => hex);

  const primaryButtonFill =
    buttons.primary?.background && !isNeutralButton(buttons.primary)
      ? opaqueHex(buttons.primary.background)
      : undefined;
  const primary = named.primary ?? primaryButtonFill ?? chromatic[0];
  if (primary) colors.primary = primary;

  const others = chromatic.filter((hex) => !primary || isOtherHue(hex, primary));
  const secondaryButtonFill =
    buttons.secondary?.background && !isNeutralButton(buttons.secondary)
      ? opaqueHex(buttons.secondary.background)
      : undefined;
  const secondary = named.secondary ?? secondaryButtonFill ?? others[0];
  if (secondary) colors.secondary = secondary;
  const accent = named.accent ?? others.find((hex) => !secondary || isOtherHue(hex, secondary)) ?? secondary;
  if (accent) colors.accent = accent;

  colors.background = background;
  const textPrimary =
    named.textPrimary ??
    heaviest(textColors, (hex) => Math.abs(luminance(hex) - luminance(background)) > 0.3) ??
    (snapshot.samples.body?.color ? opaqueHex(snapshot.samples.body.color) : undefined);
  if (textPrimary) colors.textPrimary = textPrimary;
  const textSecondary =
    named.textSecondary ??
    heaviest(
      textColors,
      (hex) => !!textPrimary && isDistinct(hex, textPrimary) && !isChromatic(hex) && isDistinct(hex, background),
    );
  if (textSecondary) colors.textSecondary = textSecondary;
  const link = named.link ?? heaviest(linkColors, (hex) => isDistinct(hex, background));
  if (link) colors.link = link;
  for (const role of ['success', 'warning', 'error'] as const) if (named[role]) colors[role] = named[role];
  return colors;
}

export function describeComponents(
  snapshot: BrandingSnapshot,
  buttons: ReturnType<typeof pickButtons>,
  background: string,
): BrandingComponents {
  const out: BrandingComponents = {};
  if (buttons.primary) out.buttonPrimary = describeButton(buttons.primary, background);
  if (buttons.secondary) out.buttonSecondary = describeButton(buttons.secondary, background);
  const input = snapshot.inputs[0];
  if (input) out.input = describeInput(input, background);
  return out;
}
