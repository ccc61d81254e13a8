/**
 * The version of the crawlkit package, written here from its `package.json` by the build (`scripts/write-version.ts`)
 * rather than read from that file at run time: an app bundled into one file has no `package.json` beside crawlkit's
 * modules (`version.test.ts` keeps the two equal).
 */
export const VERSION: string = '0.1.0';
