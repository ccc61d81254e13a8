/**
 * What the in-page collector (`BRANDING_SCRIPT`) returns: raw measurements of the rendered page. Colours are
 * `#rrggbb` (or `#rrggbbaa` when not opaque) whatever syntax the page used; lengths are CSS pixels.
 */
export interface BrandingSnapshot {
  url: string;
  title: string;
  /** The first 4,000 characters of the page's visible text (its `main`, else the body), whitespace collapsed. */
  text: string;
  meta: {
    siteName: string | null;
    applicationName: string | null;
    ogImage: string | null;
    themeColor: string | null;
    colorScheme: string | null;
  };
  /** `<link rel=icon|shortcut icon|apple-touch-icon|mask-icon>`, hrefs absolute. */
  icons: { rel: string; href: string; sizes: string | null; type: string | null }[];
  /** The first opaque background of html, body or a full-width wrapper; null when all are transparent. */
  pageBackground: string | null;
  /** Computed typography of key elements (absent when the page has none). */
  samples: Partial<Record<'body' | 'p' | 'h1' | 'h2' | 'h3' | 'small' | 'code', TextSample>>;
  /** CSS custom properties declared on `:root`, `html` or `body`, with the colour they resolve to, if any. */
  vars: { name: string; value: string; color: string | null }[];
  /** Text colours weighted by the characters they paint (links and buttons excluded). */
  textColors: Weighted<string>[];
  /** Link text colours weighted by characters. */
  linkColors: Weighted<string>[];
  /** Opaque background colours weighted by visible area (px²). */
  backgroundColors: Weighted<string>[];
  /** Non-neutral border colours weighted by border length. */
  borderColors: Weighted<string>[];
  /** Font stacks (the computed `font-family`) weighted by characters. */
  fontStacks: Weighted<string>[];
  /** Font weights weighted by characters. */
  fontWeights: Weighted<number>[];
  buttons: ButtonSample[];
  inputs: InputSample[];
  logos: LogoCandidate[];
  /** Non-zero padding and margin values seen (px), sampled. */
  spacingValues: number[];
  /** Non-zero gaps of flex and grid containers (px). */
  gaps: number[];
  /** Non-zero border radii of boxes with a background or border, weighted by count. */
  radii: Weighted<string>[];
  layout: { headerHeight: number | null; footerHeight: number | null; maxWidths: Weighted<string>[] };
  transitions: { durations: Weighted<string>[]; easings: Weighted<string>[] };
}

export interface Weighted<T> {
  value: T;
  weight: number;
}

export interface TextSample {
  fontFamily: string;
  fontSize: number;
  fontWeight: number;
  /** Computed line height in px; null for `normal`. */
  lineHeight: number | null;
  color: string | null;
}

export interface Corners {
  topLeft: string;
  topRight: string;
  bottomRight: string;
  bottomLeft: string;
}

export interface ButtonSample {
  text: string;
  /** Tag, id and classes, lower-cased, for role hints (`primary`, `secondary`, `outline`, ...). */
  hint: string;
  background: string | null;
  textColor: string | null;
  borderColor: string | null;
  borderWidth: number;
  radius: Corners;
  shadow: string | null;
  area: number;
  top: number;
  inHeader: boolean;
  paddingX: number;
  paddingY: number;
}

export interface InputSample {
  background: string | null;
  textColor: string | null;
  borderColor: string | null;
  borderWidth: number;
  focusBorderColor: string | null;
  radius: Corners;
  shadow: string | null;
  paddingX: number;
}

export interface LogoCandidate {
  kind: 'img' | 'svg' | 'background';
  /** Absolute URL, or a `data:image/svg+xml` URL for inline SVG. */
  src: string;
  alt: string;
  /** id, classes and file name, lower-cased. */
  hint: string;
  /** Absolute href of the enclosing link, if any. */
  href: string | null;
  left: number;
  top: number;
  width: number;
  height: number;
  inHeader: boolean;
  inFooter: boolean;
}
