import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

import { FetchError, dnsErrorMessage } from '../errors.js';
import { blockedError, isBlockedAddress, normalizeHost, type UrlPolicy } from './url-policy.js';

/** Names that never resolve (RFC 6761 §6.4): answered without asking a resolver. */
function isReservedInvalid(hostname: string): boolean {
  const host = normalizeHost(hostname);
  return host === 'invalid' || host.endsWith('.invalid');
}

function notFound(hostname: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException & { hostname?: string } = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  error.code = 'ENOTFOUND';
  error.syscall = 'getaddrinfo';
  error.hostname = hostname;
  return error;
}

/**
 * Wraps a `dns.lookup`-compatible function so that every address a name resolves to is checked against `policy`
 * at connect time, after DNS: a name that resolves (or re-resolves) to a refused address fails with
 * `URL_BLOCKED`. A resolver failure becomes `SCRAPE_DNS_RESOLUTION_ERROR`. `.invalid` names fail at once.
 */
export function guardLookup(policy: UrlPolicy, base?: LookupFunction): LookupFunction {
  const resolve: LookupFunction = base ?? dnsLookup;
  const checks = checksAddresses(policy);
  return (hostname, options, callback) => {
    if (!base && isReservedInvalid(hostname)) {
      const cause = notFound(hostname);
      queueMicrotask(() => callback(dnsError(hostname, cause), ''));
      return;
    }
    resolve(hostname, options, (error, address, family) => {
      if (error) {
        callback(dnsError(hostname, error), '');
        return;
      }
      if (checks) {
        const addresses: string[] = Array.isArray(address) ? address.map((a) => a.address) : [address];
        if (addresses.length === 0) {
          callback(dnsError(hostname, notFound(hostname)), '');
          return;
        }
        for (const ip of addresses) {
          const rule = isBlockedAddress(ip, policy);
          if (rule) {
            callback(blockedError(undefined, hostname, rule, ip), '');
            return;
          }
        }
      }
      callback(null, address, family);
    });
  };
}

/** net expects an ErrnoException from a lookup; a FetchError qualifies structurally (its `code` is a string). */
function dnsError(hostname: string, cause: NodeJS.ErrnoException): FetchError {
  return new FetchError('SCRAPE_DNS_RESOLUTION_ERROR', dnsErrorMessage(hostname), { cause });
}

/** Whether `policy` refuses some addresses, so that a name must be resolved before it can be allowed. */
export function checksAddresses(policy: UrlPolicy): boolean {
  return policy.allowPrivateNetworks === false || Boolean(policy.blockedHosts?.length);
}

/**
 * Resolves `hostname` (an IP literal stands for itself) and checks every address against `policy`, for a connection
 * that does not resolve the name itself: one handed to a proxy, or one pinned to the addresses checked here.
 * @throws FetchError `URL_BLOCKED` (with `rule`) or `SCRAPE_DNS_RESOLUTION_ERROR`.
 */
export function resolveChecked(hostname: string, policy: UrlPolicy, base?: LookupFunction): Promise<LookupAddress[]> {
  const host = normalizeHost(hostname);
  const family = isIP(host);
  if (family) {
    const rule = isBlockedAddress(host, policy);
    if (rule) return Promise.reject(blockedError(undefined, host, rule));
    return Promise.resolve([{ address: host, family }]);
  }
  const lookup = guardLookup(policy, base);
  return new Promise((resolve, reject) => {
    lookup(host, { all: true }, (error, addresses) => {
      if (error) reject(error);
      else resolve(addresses as unknown as LookupAddress[]);
    });
  });
}
