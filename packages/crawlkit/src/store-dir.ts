/**
 * The store directory when none is given: the engine's `storeDir` default, the command line's `--store` default, and
 * what their help says (one home, so the help cannot drift from what the code takes).
 */
export const DEFAULT_STORE_DIR = './.crawlkit';
