import { CliError } from './errors.js';

/**
 * Firecrawl's proxy variables, which every command that fetches pages reads (`serve` and `mcp` after `--proxy`,
 * `crawlkit worker`, scrape, crawl, map, batch, search): `PROXY_SERVER` (`host:port` or a URL, `http://` when no
 * scheme), with `PROXY_USERNAME` and `PROXY_PASSWORD` taken as they are (`@`, `:`, `%` and the like encoded here).
 * @returns the proxy URL, or undefined without `PROXY_SERVER`.
 * @throws {CliError} naming `PROXY_SERVER` when it is not a URL.
 */
export function proxyFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  const server = env.PROXY_SERVER;
  if (!server) return undefined;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(server) ? server : `http://${server}`);
  } catch {
    throw new CliError(`Expected PROXY_SERVER to be host:port or a proxy URL like http://host:3128, got "${server}"`);
  }
  // The URL setters leave `%` as it is, which the proxy client would then decode: encode the value whole.
  if (env.PROXY_USERNAME) url.username = encodeURIComponent(env.PROXY_USERNAME);
  if (env.PROXY_PASSWORD) url.password = encodeURIComponent(env.PROXY_PASSWORD);
  return url.href;
}
