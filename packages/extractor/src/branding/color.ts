/** Small colour maths on `#rrggbb` / `#rrggbbaa` strings (what the collector returns). */

export interface Rgb {
  r: number;
  g: number;
  b: number;
  a: number;
}

export function parseHex(hex: string): Rgb | undefined {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})?$/i.exec(hex);
  if (!m) return undefined;
  return {
    r: parseInt(m[1]!, 16),
    g: parseInt(m[2]!, 16),
    b: parseInt(m[3]!, 16),
    a: m[4] === undefined ? 1 : parseInt(m[4], 16) / 255,
  };
}

/** WCAG relative luminance, 0 (black) to 1 (white). */
export function luminance(hex: string): number {
  const c = parseHex(hex);
  if (!c) return 1;
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

/** HSL saturation and lightness, both 0-1, and hue in degrees. */
export function hsl(hex: string): { h: number; s: number; l: number } {
  const c = parseHex(hex);
  if (!c) return { h: 0, s: 0, l: 1 };
  const r = c.r / 255;
  const g = c.g / 255;
  const b = c.b / 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return { h: 0, s: 0, l };
  const s = d / (1 - Math.abs(2 * l - 1));
  let h: number;
  if (max === r) h = ((g - b) / d) % 6;
  else if (max === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  return { h: (h * 60 + 360) % 360, s, l };
}

/** A colour a brand would pick on purpose: saturated and neither near-black nor near-white. */
export function isChromatic(hex: string): boolean {
  const { s, l } = hsl(hex);
  return s >= 0.3 && l >= 0.2 && l <= 0.88;
}

/** Euclidean distance in RGB weighted for perception ("redmean"), 0 to about 765. */
export function colorDistance(a: string, b: string): number {
  const x = parseHex(a);
  const y = parseHex(b);
  if (!x || !y) return Infinity;
  const rm = (x.r + y.r) / 2;
  const dr = x.r - y.r;
  const dg = x.g - y.g;
  const db = x.b - y.b;
  return Math.sqrt((2 + rm / 256) * dr * dr + 4 * dg * dg + (2 + (255 - rm) / 256) * db * db);
}

/** Distinct enough to be another colour rather than a shade of hover state of the same one. */
export const isDistinct = (a: string, b: string) => colorDistance(a, b) > 60;

/** Another brand colour, not a tint or shade of the same one: a different hue, or far apart. */
export function isOtherHue(a: string, b: string): boolean {
  const x = hsl(a);
  const y = hsl(b);
  const dh = Math.min(Math.abs(x.h - y.h), 360 - Math.abs(x.h - y.h));
  return dh >= 25 || colorDistance(a, b) > 180;
}

/** A translucent colour (`#rrggbbaa`) as it shows over an opaque background; opaque colours unchanged. */
export function flatten(hex: string, background: string): string {
  const c = parseHex(hex);
  const b = parseHex(background);
  if (!c || !b || c.a >= 1) return hex.slice(0, 7).toLowerCase();
  const mix = (x: number, y: number) => Math.round(x * c.a + y * (1 - c.a));
  const h = (n: number) => n.toString(16).padStart(2, '0');
  return `#${h(mix(c.r, b.r))}${h(mix(c.g, b.g))}${h(mix(c.b, b.b))}`;
}

/** The opaque `#rrggbb` part of a colour. */
export const opaqueHex = (hex: string) => hex.slice(0, 7).toLowerCase();
