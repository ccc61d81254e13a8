import { viewportSchema } from '@crawlkit/actions/schema';
import { z } from 'zod';

import { defineFormat } from './format-module.js';

/** A screenshot with its own viewport or quality: the cache key holds only the kind, so such pages stay out. */
const hasShotSettings = (f: { viewport?: unknown; quality?: number | undefined }) =>
  f.viewport !== undefined || f.quality !== undefined;

/**
 * `screenshot`: taken in Chromium once the page settled (and after the actions). The page cache keeps the kind of
 * screenshot (viewport or full page) in its key; a request with its own viewport or quality neither reads nor writes
 * the cache.
 */
export const screenshotFormat = defineFormat({
  type: 'screenshot',
  schema: z.strictObject({
    type: z.literal('screenshot'),
    fullPage: z.boolean().default(false),
    quality: z.number().int().min(1).max(100).optional(),
    viewport: viewportSchema.optional(),
  }),
  shapeFetch: (format, request) => {
    request.screenshot = { fullPage: format.fullPage };
    if (format.quality !== undefined) request.screenshot.quality = format.quality;
    if (format.viewport) request.screenshot.viewport = format.viewport;
  },
  cacheReadable: (format) => !hasShotSettings(format),
  cacheWritable: (format) => !hasShotSettings(format),
  cacheKey: (format) => `shot=${format ? (format.fullPage ? 'full' : 'view') : 'none'}`,
  produce: (_format, state) => {
    if (state.page.screenshot !== undefined) state.document.screenshot = state.page.screenshot;
  },
});
