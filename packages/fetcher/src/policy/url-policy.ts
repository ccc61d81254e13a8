import { redactUrl } from '@crawlkit/options/redact-url';
import ipaddr from 'ipaddr.js';

import { FetchError } from '../errors.js';

import { inAllowedNetworks, networksInBoth } from './allowed-networks.js';

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
   * The private networks `allowPrivateNetworks: false` lets through all the same (an intranet's `10.1.0.0/16`, one
   * server's `192.168.4.20`): CIDR networks or single IP addresses, IPv4 or IPv6, checked on the address a name
   * resolves to at connect time as the rest of the policy is. Metadata addresses stay refused inside them. Only with
   * `allowPrivateNetworks: false`: without it every network is reachable, and the option is refused as meaningless.
   * @default undefined (none)
   */
  allowedNetworks?: readonly string[];
  /**
   * When set, only these hosts may be fetched: an exact host (`example.com`, `127.0.0.1`, `::1`) or `*.suffix`,
   * which matches every subdomain of `suffix` but not `suffix` itself (list both for both). Case-insensitive. An IP
   * entry matches its address in every spelling: `127.0.0.1` also matches `[::ffff:127.0.0.1]`, `[::7f00:1]`,
   * `[64:ff9b::7f00:1]` and `[2002:7f00:1::]` (IPv4-mapped, IPv4-compatible, NAT64 and 6to4 forms).
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

/**
 * Cloud instance-metadata and platform endpoints, named as their own rule because they are the usual SSRF target.
 * Most sit in ranges strict refuses anyway; 168.63.129.16 is a public address and is refused only by this list.
 */
const METADATA_ADDRESSES = new Set([
  '169.254.169.254', // AWS, GCP, Azure, Oracle, OpenStack, DigitalOcean, Hetzner, IBM, Huawei, ...
  '169.254.170.2', // AWS ECS task metadata and credentials
  '169.254.169.123', // AWS time sync
  '169.254.169.253', // AWS VPC DNS resolver
  '169.254.0.23', // Tencent Cloud
  '100.100.100.200', // Alibaba Cloud
  '168.63.129.16', // Azure WireServer (platform agent, health probes)
  '192.0.0.192', // Oracle Cloud (legacy metadata)
  'fd00:ec2::254', // AWS IMDS over IPv6
  'fd00:ec2::123', // AWS time sync over IPv6
  'fd00:ec2::253', // AWS VPC DNS resolver over IPv6
  'fd20:ce::254', // GCP metadata over IPv6
]);
const METADATA_NAMES = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
]);

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

/** Two IP addresses are the same host when their canonical forms (see `canonicalAddress`) are equal. */
function sameAddress(a: string, b: string): boolean {
  const left = canonicalAddress(a);
  return left !== undefined && left === canonicalAddress(b);
}

/** RFC 6052's well-known NAT64 prefix 64:ff9b::/96. */
const NAT64 = ipaddr.IPv6.parse('64:ff9b::');

/**
 * The one comparable spelling of an IP address: IPv4 in dotted decimal, IPv6 in RFC 5952 form, and every IPv6 form
 * that carries an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`,
 * 6to4 `2002:AABB:CCDD::/48`) as that IPv4 address. `undefined` when `ip` is not an address.
 */
export function canonicalAddress(ip: string): string | undefined {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.parse(normalizeHost(ip).replace(/%.*$/, ''));
  } catch {
    return undefined;
  }
  if (address.kind() === 'ipv4') return address.toString();
  const embedded = embeddedIPv4(address as ipaddr.IPv6);
  return embedded ? embedded.toString() : (address as ipaddr.IPv6).toRFC5952String();
}

/** The IPv4 address an IPv6 address carries, by the forms `canonicalAddress` lists. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const fromWords = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  const zeroPrefix = p.slice(0, 6).every((w) => w === 0);
  // IPv4-compatible (deprecated, RFC 4291 §2.5.5.1): ::a.b.c.d, but not :: and ::1, which are IPv6's own.
  if (zeroPrefix && (p[6] !== 0 || p[7]! > 1)) return fromWords(p[6]!, p[7]!);
  if (address.match(NAT64, 96)) return fromWords(p[6]!, p[7]!);
  if (p[0] === 0x2002) return fromWords(p[1]!, p[2]!);
  return undefined;
}

/**
 * The rule that forbids connecting to `ip` under `policy`, or `undefined` when it is allowed. Rule names are
 * ipaddr.js range names (`loopback`, `private`, `linkLocal`, `carrierGradeNat`, `uniqueLocal`, `unspecified`,
 * `ipv4Mapped`, `6to4`, `teredo`, `rfc6052`, `multicast`, `reserved`, ...) plus `ipv4Compatible`, `metadata`,
 * `blockedHosts` and `invalidAddress`. Meant for connect-time checks (browser request interception, custom dialers).
 */
export function isBlockedAddress(ip: string, policy: UrlPolicy): string | undefined {
  const host = normalizeHost(ip).replace(/%.*$/, '');
  if (policy.blockedHosts?.length && matchesHostPattern(host, policy.blockedHosts)) return 'blockedHosts';
  if (policy.allowPrivateNetworks !== false) return undefined;
  const canonical = canonicalAddress(host);
  if (canonical === undefined) return 'invalidAddress';
  if (METADATA_ADDRESSES.has(canonical)) return 'metadata';
  if (inAllowedNetworks(canonical, policy.allowedNetworks)) return undefined;
  const address = ipaddr.parse(host.replace(/%.*$/, ''));
  const range = address.range();
  if (range !== 'unicast') return range;
  // An IPv4 address inside an IPv6 form ipaddr.js has no range name for (IPv4-compatible).
  if (address.kind() === 'ipv6' && ipaddr.parse(canonical).kind() === 'ipv4') return 'ipv4Compatible';
  return undefined;
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

/**
 * Whether `policy` lets `url` through, by the same check as {@link checkUrlAgainstPolicy} (no DNS query): for the
 * places that list URLs without fetching them (map, page links, the local search, the page cache).
 */
export function isAllowedByPolicy(url: string | URL, policy: UrlPolicy): boolean {
  try {
    checkUrlAgainstPolicy(url, policy);
    return true;
  } catch {
    return false;
  }
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
  if (host === 'localhost' || host.endsWith('.localhost')) {
    // Checked again on the addresses it resolves to when it connects.
    return inAllowedNetworks('127.0.0.1', policy.allowedNetworks) ? undefined : 'loopback';
  }
  if (METADATA_NAMES.has(host)) return 'metadata';
  return undefined;
}

/** What lets a URL refused by each list rule through; every other rule is one of `allowPrivateNetworks: false`. */
const LOOSEN: Readonly<Record<string, string>> = {
  blockedHosts: 'Remove the host from urlPolicy.blockedHosts to allow it.',
  allowedHosts: 'Add the host to urlPolicy.allowedHosts to allow it.',
  allowedPorts: 'Add the port to urlPolicy.allowedPorts to allow it.',
};
const LOOSEN_PRIVATE =
  'Private, loopback and metadata addresses are refused while urlPolicy.allowPrivateNetworks is false ' +
  '(the strict policy: --url-policy strict, and crawlkit serve or mcp beyond loopback unless --allow-private-networks); ' +
  "urlPolicy.allowedNetworks lists the private networks it lets through (an intranet's 10.1.0.0/16).";

/** The `URL_BLOCKED` error for `host` refused by `rule`, saying which setting lets it through. */
export function blockedError(url: URL | string | undefined, host: string, rule: string, address?: string): FetchError {
  const target = address && address !== host ? `${host} (${address})` : host;
  const message = `URL blocked by the URL policy: ${target} is refused by rule "${rule}". ${LOOSEN[rule] ?? LOOSEN_PRIVATE}`;
  return new FetchError('URL_BLOCKED', message, url === undefined ? { rule } : { url: redactUrl(url), rule });
}

/**
 * A `URL_BLOCKED` met on a redirect's target, told as such: the caller asked for `first`, and a message naming only
 * the refused host (`127.0.0.3 is refused`) left them to guess where it came from.
 */
export function blockedAfterRedirect(error: FetchError, first: URL | string): FetchError {
  const target = error.url ?? 'a URL';
  return new FetchError('URL_BLOCKED', `The page ${redactUrl(first)} redirected to ${target}. ${error.message}`, {
    ...(error.url !== undefined ? { url: error.url } : {}),
    ...(error.rule !== undefined ? { rule: error.rule } : {}),
    cause: error,
  });
}

export { redactUrl };

/**
 * The policy that allows only what both `a` and `b` allow: private networks if both do (else the `allowedNetworks`
 * both let through), the union of `blockedHosts`,
 * the hosts both `allowedHosts` lists match (an exact host kept when the other list matches it; of two overlapping
 * `*.suffix` patterns the narrower one), the ports both `allowedPorts` lists hold. A list one side leaves unset is the
 * other's. Used where a job's policy meets the policy of the process running it (which can only tighten it).
 */
export function tightenUrlPolicy(a: Readonly<UrlPolicy>, b: Readonly<UrlPolicy>): UrlPolicy {
  const policy: UrlPolicy = {};
  if (a.allowPrivateNetworks === false || b.allowPrivateNetworks === false) {
    policy.allowPrivateNetworks = false;
    // A side that allows every network leaves the other's exceptions; two lists keep what both allow.
    const networks =
      a.allowPrivateNetworks !== false
        ? b.allowedNetworks
        : b.allowPrivateNetworks !== false
          ? a.allowedNetworks
          : networksInBoth(a.allowedNetworks ?? [], b.allowedNetworks ?? []);
    if (networks?.length) policy.allowedNetworks = [...networks];
  }
  const blocked = [...new Set([...(a.blockedHosts ?? []), ...(b.blockedHosts ?? [])])];
  if (blocked.length) policy.blockedHosts = blocked;
  const allowed =
    a.allowedHosts && b.allowedHosts ? bothHosts(a.allowedHosts, b.allowedHosts) : (a.allowedHosts ?? b.allowedHosts);
  if (allowed) policy.allowedHosts = [...allowed];
  const ports =
    a.allowedPorts && b.allowedPorts
      ? a.allowedPorts.filter((p) => b.allowedPorts!.includes(p))
      : (a.allowedPorts ?? b.allowedPorts);
  if (ports) policy.allowedPorts = [...ports];
  return policy;
}

/** The host patterns matching what both lists match. */
function bothHosts(a: readonly string[], b: readonly string[]): string[] {
  const both = new Set<string>();
  const keep = (from: readonly string[], other: readonly string[]) => {
    for (const raw of from) {
      const entry = normalizeHost(raw);
      if (!entry.startsWith('*.')) {
        if (matchesHostPattern(entry, other)) both.add(entry);
        continue;
      }
      // `*.a.example` lies inside `*.example` (or equals it): the narrower pattern is what both allow.
      const suffix = entry.slice(1);
      if (other.some((o) => normalizeHost(o).startsWith('*.') && suffix.endsWith(normalizeHost(o).slice(1)))) {
        both.add(entry);
      }
    }
  };
  keep(a, b);
  keep(b, a);
  return [...both];
}
