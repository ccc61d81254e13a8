export type FrontierErrorCode = 'FRONTIER_INVALID_URL' | 'FRONTIER_SITEMAP_TOO_LARGE';

const BRAND = Symbol.for('crawlkit.error');

export class FrontierError extends Error {
  readonly code: FrontierErrorCode;
  readonly [BRAND] = true;

  constructor(code: FrontierErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'FrontierError';
    this.code = code;
  }
}
