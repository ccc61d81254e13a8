import ipaddr from 'ipaddr.js';

import { FetchError } from '../errors.js';

/**
 * Which URLs and addresses may be fetched. Checked on every URL before the request, on every redirect hop, and on
 * every address a host name resolves to at connect time (so DNS rebinding cannot get past it).
 */
export interface UrlPolicy {
  /**
   * Allow loopback, private (RFC 1918), link-local, carrier-grade NAT (100.64/10), unique-local (fc00::/7),
   * unspecified (0.0.0.0, ::), multicast, reserved and documentation ranges, IPv4-mapped and IPv4-embedding IPv6
   * (6to4, Teredo, NAT64), and cloud metadata addresses such as 169.254.169.254. With `false`, only global unicast
   * addresses are reachable, and the names `localhost`, `*.localhost` and `metadata.google.internal` are refused
   * without a DNS query.
   * @default true
   */
  allowPrivateNetworks?: boolean;
  /**
   * When set, only these hosts may be fetched: an exact host (`example.com`, `127.0.0.1`, `::1`) or `*.suffix`,
   * which matches every subdomain of `suffix` but not `suffix` itself (list both for both). Case-insensitive.
   * @default undefined (every host)
   */
  allowedHosts?: readonly string[];
  /**
   * Hosts that may never be fetched, in the same forms as `allowedHosts`. Exact IP entries also apply to the
   * addresses a name resolves to. Wins over `allowedHosts`.
   * @default undefined (none)
   */
  blockedHosts?: readonly string[];
  /**
   * When set, only these ports may be fetched (the URL's port, or 80/443 by scheme).
   * @default undefined (every port)
   */
  allowedPorts?: readonly number[];
}

/** Blocks every non-public address range and the names that always mean one. Hosts and ports stay open. */
export const STRICT_URL_POLICY: Readonly<UrlPolicy> = Object.freeze({ allowPrivateNetworks: false });

/** Cloud instance-metadata endpoints, named as their own rule because they are the usual SSRF target. */
const METADATA_ADDRESSES = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean, ...
  '169.254.170.2', // AWS ECS task metadata
  '169.254.169.123', // AWS time sync
  '100.100.100.200', // Alibaba Cloud
  'fd00:ec2::254', // AWS IMDS over IPv6
]);
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);

const WEB_PROTOCOLS = new Set(['http:', 'https:']);

/** Lower-cased host without IPv6 brackets and without a trailing dot. */
export function normalizeHost(host: string): string {
  let h = host.toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

/** Does `host` (normalised) match an exact entry or a `*.suffix` entry of `patterns`? */
export function matchesHostPattern(host: string, patterns: readonly string[]): boolean {
  for (const raw of patterns) {
    const pattern = normalizeHost(raw);
    if (pattern.startsWith('*.')) {
      if (host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1) return true;
    } else if (pattern === host) {
      return true;
    } else if (ipaddr.isValid(pattern) && ipaddr.isValid(host) && sameAddress(pattern, host)) {
      return true;
    }
  }
  return false;
}

function sameAddress(a: string, b: string): boolean {
  try {
    return ipaddr.parse(a).toNormalizedString() === ipaddr.parse(b).toNormalizedString();
  } catch {
    return false;
  }
}

/**
 * The rule that forbids connecting to `ip` under `policy`, or `undefined` when it is allowed. Rule names are
 * ipaddr.js range names (`loopback`, `private`, `linkLocal`, `carrierGradeNat`, `uniqueLocal`, `unspecified`,
 * `ipv4Mapped`, `6to4`, `teredo`, `rfc6052`, `multicast`, `reserved`, ...) plus `metadata`, `blockedHosts` and
 * `invalidAddress`. Meant for connect-time checks (browser request interception, custom dialers).
 */
export function isBlockedAddress(ip: string, policy: UrlPolicy): string | undefined {
  const host = normalizeHost(ip);
  if (policy.blockedHosts?.length && matchesHostPattern(host, policy.blockedHosts)) return 'blockedHosts';
  if (policy.allowPrivateNetworks !== false) return undefined;
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.parse(host.replace(/%.*$/, ''));
  } catch {
    return 'invalidAddress';
  }
  const normalized = address.kind() === 'ipv6' ? (address as ipaddr.IPv6).toRFC5952String() : address.toString();
  if (METADATA_ADDRESSES.has(normalized)) return 'metadata';
  const range = address.range();
  return range === 'unicast' ? undefined : range;
}

/**
 * Parses `url` and checks it against `policy` without any DNS query: scheme, host lists, port, IP-literal hosts
 * (every spelling the WHATWG URL parser accepts: decimal, octal, hex, short forms) and names that always mean a
 * private address. Returns the parsed URL.
 * @throws FetchError `SCRAPE_INVALID_URL`, `SCRAPE_UNSUPPORTED_PROTOCOL` or `URL_BLOCKED` (with `rule`).
 */
export function checkUrlAgainstPolicy(url: string | URL, policy: UrlPolicy): URL {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch (error) {
    throw new FetchError('SCRAPE_INVALID_URL', 'Invalid URL', { url: redactUrl(String(url)), cause: error });
  }
  if (!WEB_PROTOCOLS.has(parsed.protocol)) {
    throw new FetchError('SCRAPE_UNSUPPORTED_PROTOCOL', `URL uses unsupported protocol: ${parsed.protocol}`, {
      url: redactUrl(parsed),
    });
  }
  const rule = urlRule(parsed, policy);
  if (rule) throw blockedError(parsed, normalizeHost(parsed.hostname), rule);
  return parsed;
}

function urlRule(url: URL, policy: UrlPolicy): string | undefined {
  const host = normalizeHost(url.hostname);
  if (policy.blockedHosts?.length && matchesHostPattern(host, policy.blockedHosts)) return 'blockedHosts';
  if (policy.allowedHosts && !matchesHostPattern(host, policy.allowedHosts)) return 'allowedHosts';
  if (policy.allowedPorts) {
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    if (!policy.allowedPorts.includes(port)) return 'allowedPorts';
  }
  if (policy.allowPrivateNetworks !== false) return undefined;
  if (ipaddr.isValid(host)) return isBlockedAddress(host, policy);
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (METADATA_NAMES.has(host)) return 'metadata';
  return undefined;
}

/** The `URL_BLOCKED` error for `host` refused by `rule`. */
export function blockedError(url: URL | string | undefined, host: string, rule: string, address?: string): FetchError {
  const target = address && address !== host ? `${host} (${address})` : host;
  const message = `URL blocked by the URL policy: ${target} is refused by rule "${rule}".`;
  return new FetchError('URL_BLOCKED', message, url === undefined ? { rule } : { url: redactUrl(url), rule });
}

/** `url` without its user name and password, for errors and logs. */
export function redactUrl(url: URL | string): string {
  let parsed: URL;
  if (typeof url === 'string') {
    if (!url.includes('@')) return url;
    try {
      parsed = new URL(url);
    } catch {
      return url.replace(/\/\/[^/@]*@/, '//');
    }
  } else {
    parsed = url;
  }
  if (!parsed.username && !parsed.password) return parsed.href;
  const copy = new URL(parsed.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}
