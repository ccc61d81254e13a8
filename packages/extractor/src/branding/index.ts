export { BRANDING_SCRIPT } from './collect-script.js';
export { buildBranding } from './build-branding.js';
export { cleanFontName, parseFontStack } from './fonts.js';
export type {
  BrandingButton,
  BrandingColors,
  BrandingComponents,
  BrandingFont,
  BrandingImages,
  BrandingInput,
  BrandingPersonality,
  BrandingProfile,
  BrandingSpacing,
  BrandingTypography,
} from './profile.js';
export type { BrandingSnapshot } from './snapshot.js';
