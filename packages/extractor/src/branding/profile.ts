/**
 * The v2 branding profile (reference §12), as far as it can be measured without a language model. Type aliases
 * (not interfaces) so that the objects are assignable to index-signature types such as v2's `BrandingProfile`.
 */
export type BrandingProfile = {
  colorScheme?: 'light' | 'dark';
  brandName?: string;
  /** Copy of `images.logo`. */
  logo?: string | null;
  /** Families in use, the most used first. */
  fonts?: BrandingFont[];
  colors?: BrandingColors;
  typography?: BrandingTypography;
  spacing?: BrandingSpacing;
  components?: BrandingComponents;
  images?: BrandingImages;
  animations?: { transitionDuration?: string; easing?: string };
  layout?: { grid?: { columns?: number; maxWidth?: string }; headerHeight?: string; footerHeight?: string };
  personality?: BrandingPersonality;
};

export type BrandingFont = {
  family: string;
  /** Where the family is used: `body`, `heading`, `code` or `other`. */
  role: 'body' | 'heading' | 'code' | 'other';
  /** Share of the page's characters set in it, 0-1. */
  usage: number;
};

/** Hex colours (`#rrggbb`). */
export type BrandingColors = {
  primary?: string;
  secondary?: string;
  accent?: string;
  background?: string;
  textPrimary?: string;
  textSecondary?: string;
  link?: string;
  success?: string;
  warning?: string;
  error?: string;
  [role: string]: string | undefined;
};

export type BrandingTypography = {
  fontFamilies?: { primary?: string; heading?: string; code?: string };
  fontStacks?: { primary?: string[]; heading?: string[]; body?: string[]; paragraph?: string[] };
  /** CSS pixel sizes such as `'48px'`. */
  fontSizes?: { h1?: string; h2?: string; h3?: string; body?: string; small?: string };
  /** Unitless ratios of line height to font size. */
  lineHeights?: { heading?: number; body?: number };
  fontWeights?: { light?: number; regular?: number; medium?: number; bold?: number };
};

export type BrandingSpacing = {
  /** The grid most paddings and margins are multiples of, in px. */
  baseUnit?: number;
  padding?: Record<string, number>;
  gridGutter?: number;
  /** The most used corner radius, e.g. `'8px'`. */
  borderRadius?: string;
};

export type BrandingButton = {
  background?: string;
  textColor?: string;
  borderColor?: string;
  borderRadius?: string;
  /**
   * Set when the corners differ: the four radii as CSS's `border-radius` shorthand (top-left, top-right,
   * bottom-right, bottom-left), e.g. `'8px 8px 0px 0px'`. A string, as the SDKs type every button field.
   */
  borderRadiusCorners?: string;
  shadow?: string;
};

export type BrandingInput = BrandingButton & { focusBorderColor?: string };

export type BrandingComponents = {
  buttonPrimary?: BrandingButton;
  buttonSecondary?: BrandingButton;
  input?: BrandingInput;
};

export type BrandingImages = {
  logo?: string | null;
  favicon?: string | null;
  ogImage?: string | null;
  logoHref?: string | null;
  logoAlt?: string | null;
};

export type BrandingPersonality = {
  tone: 'professional' | 'playful' | 'modern' | 'traditional' | 'minimalist' | 'bold';
  energy: 'low' | 'medium' | 'high';
  targetAudience: string;
};
