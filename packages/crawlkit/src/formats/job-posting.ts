/**
 * The `jobPosting` format (crawlkit's own): the schema.org `JobPosting` a page declares in its structured data
 * (`job-posting-reader.ts`), with no model.
 */
import { declaredFormat } from './declared-format.js';

/** `jobPosting`: the job the page declares, or a warning that it declares none. */
export const jobPostingFormat = declaredFormat(
  'jobPosting',
  async () => (await import('./job-posting-reader.js')).extractJobPosting,
  'No job posting was found on this page: it declares no JobPosting in JSON-LD or microdata.',
);
