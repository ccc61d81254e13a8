import { createHash } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The UUID v5 (RFC 9562: SHA-1 of the namespace's 16 bytes and the name's UTF-8) of `name` in `namespace`, as the
 * `uuid` package's `v5(name, namespace)` makes it: ids that are the same each time a retried step makes them (webhook
 * events, checks). Ours rather than the package's, whose index loads its 20 modules for this one function.
 */
export function uuidV5(name: string, namespace: string): string {
  if (!UUID.test(namespace)) throw new TypeError(`uuidV5: the namespace must be a UUID, got ${namespace}`);
  const bytes = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
