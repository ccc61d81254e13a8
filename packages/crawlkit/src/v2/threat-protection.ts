import type { ThreatProtection } from './scrape-options.js';

/** Lower-cased host without a trailing dot or IPv6 brackets. */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname
      .toLowerCase()
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

/** An exact domain, or `*.suffix` for every subdomain of `suffix` (upstream's list entries). */
function matches(host: string, entry: string): boolean {
  const pattern = entry.trim().toLowerCase().replace(/\.$/, '');
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1));
  return host === pattern;
}

/**
 * Why `threatProtection`'s lists refuse `url`, or undefined when they let it through: the whitelist wins over
 * everything, then the blacklist and the blocked TLDs apply. Mode `off` enforces nothing. The scans of modes
 * `normal` and `zscaler` cannot run locally (the document says so); their lists apply as in `manual-only`.
 */
export function threatProtectionRefusal(url: string, options: ThreatProtection | undefined): string | undefined {
  if (!options || options.mode === 'off') return undefined;
  const host = hostOf(url);
  if (host === undefined) return undefined;
  if (options.whitelist?.some((entry) => matches(host, entry))) return undefined;
  const listed = options.blacklist?.find((entry) => matches(host, entry));
  if (listed) return `${host} is on the request's threatProtection blacklist (${listed})`;
  const tld = host.split('.').pop() ?? '';
  const blocked = options.blockedTlds?.find((entry) => entry.trim().toLowerCase().replace(/^\./, '') === tld);
  if (blocked) return `${host} is under a TLD the request's threatProtection blocks (${blocked})`;
  return undefined;
}
