import ipaddr from 'ipaddr.js';

type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

const parsed = new WeakMap<readonly string[], Network[]>();

/** An entry of `allowedNetworks` as a network: `10.1.0.0/16`, `fd12::/64`, or one address (`10.1.2.3`). */
function parseNetwork(entry: string): Network {
  if (entry.includes('/')) return ipaddr.parseCIDR(entry);
  const address = ipaddr.parse(entry);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

/**
 * What is wrong with an entry of `allowedNetworks`, or undefined: it must be a network in CIDR notation or one IP
 * address. A host name cannot be checked before it resolves, and would stand for whatever it resolves to next.
 */
export function networkEntryIssue(entry: string): string | undefined {
  try {
    parseNetwork(entry.trim());
    return undefined;
  } catch {
    return (
      `\`${entry}\` is not a network: write one in CIDR notation (\`10.1.0.0/16\`, \`fd12:3456::/48\`) or one IP ` +
      'address; a host name goes in allowedHosts'
    );
  }
}

function networksOf(entries: readonly string[]): Network[] {
  let networks = parsed.get(entries);
  if (!networks) {
    networks = entries.map((entry) => parseNetwork(entry.trim()));
    parsed.set(entries, networks);
  }
  return networks;
}

/** Whether `canonical` (an address in `canonicalAddress`'s spelling) lies in one of `entries`' networks. */
export function inAllowedNetworks(canonical: string, entries: readonly string[] | undefined): boolean {
  if (!entries?.length) return false;
  const address = ipaddr.parse(canonical);
  return networksOf(entries).some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits));
}

/** The entries of `a` that lie wholly in a network of `b`, and of `b` in `a`: the addresses both allow. */
export function networksInBoth(a: readonly string[], b: readonly string[]): string[] {
  const within = (entry: string, others: readonly string[]) => {
    const [base, bits] = parseNetwork(entry.trim());
    return networksOf(others).some(
      ([other, otherBits]) => other.kind() === base.kind() && bits >= otherBits && base.match(other, otherBits),
    );
  };
  return [...new Set([...a.filter((entry) => within(entry, b)), ...b.filter((entry) => within(entry, a))])];
}
