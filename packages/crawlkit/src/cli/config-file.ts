/** The name of the config file `serve` reads from its working directory when no `--config` is given. */
export const CONFIG_FILE = 'crawlkit.config.json';
