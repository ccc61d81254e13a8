import { describe, expect, it } from 'vitest';

import { isFetchError, type FetchError } from '../errors.js';
import {
  STRICT_URL_POLICY,
  checkUrlAgainstPolicy,
  isAllowedByPolicy,
  isBlockedAddress,
  matchesHostPattern,
  redactUrl,
  tightenUrlPolicy,
  type UrlPolicy,
} from './url-policy.js';

function refusal(url: string, policy = STRICT_URL_POLICY): FetchError {
  try {
    checkUrlAgainstPolicy(url, policy);
  } catch (error) {
    if (isFetchError(error)) return error;
    throw error;
  }
  throw new Error(`expected ${url} to be refused`);
}

describe('checkUrlAgainstPolicy: strict preset', () => {
  it.each([
    // loopback in every spelling the WHATWG URL parser accepts
    ['http://127.0.0.1/', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://127.0.0.1./', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0x7f000001/', 'loopback'],
    ['http://0x7f.0.0.1/', 'loopback'],
    ['http://017700000001/', 'loopback'],
    ['http://0177.0.0.01/', 'loopback'],
    ['http://127.255.255.254:8080/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://[0:0:0:0:0:0:0:1]/', 'loopback'],
    ['http://localhost/', 'loopback'],
    ['http://LOCALHOST./', 'loopback'],
    ['http://app.localhost:3000/', 'loopback'],
    // unspecified
    ['http://0.0.0.0/', 'unspecified'],
    ['http://0/', 'unspecified'],
    ['http://[::]/', 'unspecified'],
    // RFC 1918
    ['http://10.0.0.1/', 'private'],
    ['http://012.0.0.1/', 'private'],
    ['http://172.16.5.4/', 'private'],
    ['http://172.31.255.255/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://3232235777/', 'private'],
    ['http://0xc0a80101/', 'private'],
    ['http://0300.0250.01.01/', 'private'],
    ['http://0xc0.0xa8.1.1/', 'private'],
    // metadata and link-local
    ['http://169.254.169.254/latest/meta-data/', 'metadata'],
    ['http://2852039166/', 'metadata'],
    ['http://0xa9fea9fe/', 'metadata'],
    ['http://0251.0376.0251.0376/', 'metadata'],
    ['http://169.254.43518/', 'metadata'],
    ['http://169.254.170.2/v2/credentials', 'metadata'],
    ['http://[fd00:ec2::254]/', 'metadata'],
    ['http://100.100.100.200/', 'metadata'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'metadata'],
    ['http://168.63.129.16/machine?comp=goalstate', 'metadata'],
    ['http://[::ffff:168.63.129.16]/', 'metadata'],
    ['http://[64:ff9b::a83f:8110]/', 'metadata'],
    ['http://169.254.0.23/', 'metadata'],
    ['http://192.0.0.192/latest/', 'metadata'],
    ['http://[fd20:ce::254]/', 'metadata'],
    ['http://[fd00:ec2::123]/', 'metadata'],
    ['http://instance-data/latest/', 'metadata'],
    ['http://169.254.1.1/', 'linkLocal'],
    ['http://[fe80::1]/', 'linkLocal'],
    // CGNAT, unique-local
    ['http://100.64.0.1/', 'carrierGradeNat'],
    ['http://100.127.255.254/', 'carrierGradeNat'],
    ['http://[fc00::1]/', 'uniqueLocal'],
    ['http://[fd12:3456:789a::1]/', 'uniqueLocal'],
    // IPv4 inside IPv6
    ['http://[::ffff:127.0.0.1]/', 'ipv4Mapped'],
    ['http://[::ffff:7f00:1]/', 'ipv4Mapped'],
    ['http://[::ffff:169.254.169.254]/', 'metadata'],
    ['http://[::ffff:10.0.0.1]/', 'ipv4Mapped'],
    ['http://[::ffff:8.8.8.8]/', 'ipv4Mapped'],
    ['http://[64:ff9b::7f00:1]/', 'rfc6052'],
    ['http://[::7f00:1]/', 'ipv4Compatible'],
    ['http://[::127.0.0.1]/', 'ipv4Compatible'],
    ['http://[::a00:1]/', 'ipv4Compatible'],
    ['http://[2002:7f00:1::]/', '6to4'],
    ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'teredo'],
    // other special-purpose ranges
    ['http://224.0.0.1/', 'multicast'],
    ['http://[ff02::1]/', 'multicast'],
    ['http://255.255.255.255/', 'broadcast'],
    ['http://192.0.2.1/', 'reserved'],
    ['http://240.0.0.1/', 'reserved'],
  ])('refuses %s (%s)', (url, rule) => {
    const error = refusal(url);
    expect(error.code).toBe('URL_BLOCKED');
    expect(error.rule).toBe(rule);
    expect(error.message).toContain(`rule "${rule}"`);
  });

  it.each([
    'http://8.8.8.8/',
    'https://93.184.216.34/',
    'http://[2606:4700:4700::1111]/',
    'https://example.com/a?b#c',
    'http://134744072/',
  ])('allows the public address or name %s', (url) => {
    expect(checkUrlAgainstPolicy(url, STRICT_URL_POLICY)).toBeInstanceOf(URL);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(STRICT_URL_POLICY)).toBe(true);
  });
});

describe('checkUrlAgainstPolicy: schemes and the default policy', () => {
  it.each([
    'file:///etc/passwd',
    'data:text/html,hi',
    'javascript:alert(1)',
    'ftp://example.com/',
    'ws://example.com/',
    'gopher://x/',
  ])('refuses the non-web scheme of %s', (url) => {
    const error = refusal(url, {});
    expect(error.code).toBe('SCRAPE_UNSUPPORTED_PROTOCOL');
    expect(error.message).toMatch(/^URL uses unsupported protocol/);
  });

  it('refuses what does not parse', () => {
    expect(refusal('http://', {}).code).toBe('SCRAPE_INVALID_URL');
    expect(refusal('//no-scheme', {}).code).toBe('SCRAPE_INVALID_URL');
  });

  it('allows every address by default (test harnesses scrape localhost)', () => {
    for (const url of ['http://127.0.0.1:3000/', 'http://localhost/', 'http://10.0.0.1/', 'http://169.254.169.254/']) {
      expect(checkUrlAgainstPolicy(url, {}).href).toBe(url);
    }
  });
});

describe('checkUrlAgainstPolicy: hosts and ports', () => {
  it('matches exact hosts and *.suffix patterns case-insensitively', () => {
    const patterns = ['Example.com', '*.docs.example.org', '::1'];
    expect(matchesHostPattern('example.com', patterns)).toBe(true);
    expect(matchesHostPattern('www.example.com', patterns)).toBe(false);
    expect(matchesHostPattern('a.docs.example.org', patterns)).toBe(true);
    expect(matchesHostPattern('a.b.docs.example.org', patterns)).toBe(true);
    expect(matchesHostPattern('docs.example.org', patterns)).toBe(false);
    expect(matchesHostPattern('evildocs.example.org', patterns)).toBe(false);
    expect(matchesHostPattern('0:0:0:0:0:0:0:1', patterns)).toBe(true);
  });

  it('applies allowedHosts, blockedHosts (which wins) and allowedPorts', () => {
    const policy = {
      allowedHosts: ['example.com', '*.example.com'],
      blockedHosts: ['admin.example.com'],
      allowedPorts: [80, 443],
    };
    expect(checkUrlAgainstPolicy('https://example.com/', policy)).toBeInstanceOf(URL);
    expect(checkUrlAgainstPolicy('http://www.EXAMPLE.com./x', policy)).toBeInstanceOf(URL);
    expect(refusal('https://admin.example.com/', policy).rule).toBe('blockedHosts');
    expect(refusal('https://other.org/', policy).rule).toBe('allowedHosts');
    expect(refusal('https://example.com:8443/', policy).rule).toBe('allowedPorts');
    expect(refusal('http://[::1]/', { blockedHosts: ['::1'] }).rule).toBe('blockedHosts');
  });

  it('says which setting lets each refusal through', () => {
    const policy: UrlPolicy = { allowedHosts: ['*.example.com'], blockedHosts: ['a.example.com'], allowedPorts: [443] };
    expect(refusal('https://a.example.com/', policy).message).toContain('Remove the host from urlPolicy.blockedHosts');
    expect(refusal('https://other.org/', policy).message).toContain('Add the host to urlPolicy.allowedHosts');
    expect(refusal('http://b.example.com/', policy).message).toContain('Add the port to urlPolicy.allowedPorts');
    for (const url of ['http://127.0.0.1/', 'http://169.254.169.254/', 'http://10.0.0.1/', 'http://localhost/'])
      expect(refusal(url).message).toMatch(/urlPolicy\.allowPrivateNetworks is false .*--allow-private-networks/);
    expect(refusal('http://2130706433/', { blockedHosts: ['127.0.0.1'] }).rule).toBe('blockedHosts');
  });

  // One address, many spellings: IPv4-mapped, IPv4-compatible, NAT64 and 6to4 forms are their IPv4 address.
  const LOOPBACK_FORMS = [
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[0:0:0:0:0:ffff:7f00:1]/',
    'http://[::7f00:1]/',
    'http://[::127.0.0.1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[64:ff9b::127.0.0.1]/',
    'http://[2002:7f00:1::]/',
    'http://[2002:7f00:1:1234::1]/',
  ];

  it.each(LOOPBACK_FORMS)('blockedHosts 127.0.0.1 refuses %s', (url) => {
    expect(refusal(url, { blockedHosts: ['127.0.0.1'] }).rule).toBe('blockedHosts');
    expect(refusal(url, { blockedHosts: ['0x7f.1'] }).rule).toBe('blockedHosts');
  });

  it.each(LOOPBACK_FORMS)('allowedHosts 127.0.0.1 allows %s and nothing else', (url) => {
    expect(checkUrlAgainstPolicy(url, { allowedHosts: ['127.0.0.1'] })).toBeInstanceOf(URL);
    expect(refusal(url, { allowedHosts: ['127.0.0.2'] }).rule).toBe('allowedHosts');
  });

  it('compares an IPv6 entry with the IPv6 forms of IPv4 addresses the same way', () => {
    expect(refusal('http://127.0.0.1/', { blockedHosts: ['::ffff:127.0.0.1'] }).rule).toBe('blockedHosts');
    expect(refusal('http://127.0.0.1/', { blockedHosts: ['64:ff9b::7f00:1'] }).rule).toBe('blockedHosts');
    // IPv6's own loopback and unspecified addresses are not IPv4-compatible forms.
    expect(checkUrlAgainstPolicy('http://[::1]/', { blockedHosts: ['0.0.0.1'] })).toBeInstanceOf(URL);
    expect(checkUrlAgainstPolicy('http://[::]/', { blockedHosts: ['0.0.0.0'] })).toBeInstanceOf(URL);
    expect(checkUrlAgainstPolicy('http://[::ffff:127.0.0.2]/', { blockedHosts: ['127.0.0.1'] })).toBeInstanceOf(URL);
  });
});

describe('isBlockedAddress', () => {
  it('names the rule for resolved addresses, zone ids included', () => {
    expect(isBlockedAddress('127.0.0.1', STRICT_URL_POLICY)).toBe('loopback');
    expect(isBlockedAddress('::1', STRICT_URL_POLICY)).toBe('loopback');
    expect(isBlockedAddress('::ffff:10.0.0.1', STRICT_URL_POLICY)).toBe('ipv4Mapped');
    expect(isBlockedAddress('fe80::1%eth0', STRICT_URL_POLICY)).toBe('linkLocal');
    expect(isBlockedAddress('169.254.169.254', STRICT_URL_POLICY)).toBe('metadata');
    expect(isBlockedAddress('100.64.1.1', STRICT_URL_POLICY)).toBe('carrierGradeNat');
    expect(isBlockedAddress('not-an-ip', STRICT_URL_POLICY)).toBe('invalidAddress');
    expect(isBlockedAddress('8.8.8.8', STRICT_URL_POLICY)).toBeUndefined();
    expect(isBlockedAddress('2606:4700:4700::1111', STRICT_URL_POLICY)).toBeUndefined();
  });

  it('allows everything under the default policy except blocked exact addresses', () => {
    expect(isBlockedAddress('127.0.0.1', {})).toBeUndefined();
    expect(isBlockedAddress('10.1.2.3', { blockedHosts: ['10.1.2.3'] })).toBe('blockedHosts');
    expect(isBlockedAddress('::ffff:10.1.2.3', { blockedHosts: ['10.1.2.3'] })).toBe('blockedHosts');
    expect(isBlockedAddress('::a01:203', { blockedHosts: ['10.1.2.3'] })).toBe('blockedHosts');
  });
});

describe('allowedNetworks', () => {
  const intranet: UrlPolicy = {
    allowPrivateNetworks: false,
    allowedNetworks: ['10.1.0.0/16', '127.0.0.2', 'fd12::/64'],
  };

  it('lets the listed private networks through the strict policy, in every spelling of their addresses', () => {
    for (const url of ['http://10.1.2.3/', 'http://[::ffff:10.1.2.3]/', 'http://127.0.0.2:8080/', 'http://[fd12::5]/'])
      expect(checkUrlAgainstPolicy(url, intranet)).toBeInstanceOf(URL);
    expect(isBlockedAddress('10.1.200.1', intranet)).toBeUndefined();
    for (const url of ['http://10.2.0.1/', 'http://127.0.0.1/', 'http://127.0.0.3/', 'http://[fd13::1]/'])
      expect(refusal(url, intranet).message).toContain('urlPolicy.allowedNetworks lists the private networks');
    expect(refusal('http://localhost/', intranet).rule).toBe('loopback');
    expect(
      checkUrlAgainstPolicy('http://localhost/', { ...intranet, allowedNetworks: ['127.0.0.0/8'] }),
    ).toBeInstanceOf(URL);
  });

  it('never lets a metadata address through, nor a host the policy blocks', () => {
    const wide: UrlPolicy = {
      allowPrivateNetworks: false,
      allowedNetworks: ['169.254.0.0/16'],
      blockedHosts: ['169.254.1.1'],
    };
    expect(isBlockedAddress('169.254.169.254', wide)).toBe('metadata');
    expect(isBlockedAddress('169.254.1.1', wide)).toBe('blockedHosts');
    expect(isBlockedAddress('169.254.1.2', wide)).toBeUndefined();
  });

  it('tightens to the networks both policies let through', () => {
    const worker: UrlPolicy = { allowPrivateNetworks: false, allowedNetworks: ['10.0.0.0/8'] };
    expect(tightenUrlPolicy({}, worker)).toEqual(worker);
    expect(tightenUrlPolicy(STRICT_URL_POLICY, worker)).toEqual(STRICT_URL_POLICY);
    const both = tightenUrlPolicy(intranet, worker);
    expect(both).toEqual({ allowPrivateNetworks: false, allowedNetworks: ['10.1.0.0/16'] });
    expect(tightenUrlPolicy(worker, intranet)).toEqual(both);
  });
});

describe('redactUrl', () => {
  it('drops credentials and leaves other URLs alone', () => {
    expect(redactUrl('http://user:pw@example.com/a?b')).toBe('http://example.com/a?b');
    expect(redactUrl(new URL('https://tok@example.com/'))).toBe('https://example.com/');
    expect(redactUrl('https://example.com/@x')).toBe('https://example.com/@x');
    expect(redactUrl('not a url user:pw@host')).toBe('not a url user:pw@host');
    // Unparsable because the password holds a character a URL reserves: it is hidden all the same.
    expect(redactUrl('redis://user:pa/ss@cache.internal:6379/0')).toBe('redis://cache.internal:6379/0');
    expect(redactUrl('http://user:p#w?x@example.com/a')).toBe('http://example.com/a');
  });
});

describe('isAllowedByPolicy', () => {
  it('answers what checkUrlAgainstPolicy would, without throwing', () => {
    expect(isAllowedByPolicy('https://example.com/a', STRICT_URL_POLICY)).toBe(true);
    expect(isAllowedByPolicy('http://127.0.0.1/', STRICT_URL_POLICY)).toBe(false);
    expect(isAllowedByPolicy('http://0x7f.1/', STRICT_URL_POLICY)).toBe(false);
    expect(isAllowedByPolicy('ftp://example.com/', {})).toBe(false);
    expect(isAllowedByPolicy('not a url', {})).toBe(false);
    expect(isAllowedByPolicy(new URL('http://127.0.0.1/'), {})).toBe(true);
  });
});

describe('tightenUrlPolicy', () => {
  const allows = isAllowedByPolicy;

  it('allows only what both policies allow', () => {
    const job = {
      allowedHosts: ['*.example.com', 'api.test'],
      allowedPorts: [80, 443, 8080],
      blockedHosts: ['a.test'],
    };
    const worker = { allowPrivateNetworks: false, allowedHosts: ['*.shop.example.com', 'api.test', 'other.test'] };
    const both = tightenUrlPolicy(job, worker);
    expect(both.allowPrivateNetworks).toBe(false);
    expect([...both.allowedHosts!].sort()).toEqual(['*.shop.example.com', 'api.test']);
    expect(both.allowedPorts).toEqual([80, 443, 8080]);
    expect(both.blockedHosts).toEqual(['a.test']);
    expect(allows('http://www.shop.example.com/', both)).toBe(true);
    expect(allows('http://www.example.com/', both)).toBe(false);
    expect(allows('http://other.test/', both)).toBe(false);
    expect(allows('http://api.test:9000/', both)).toBe(false);
    expect(tightenUrlPolicy(worker, job)).toEqual({
      ...both,
      allowedHosts: expect.arrayContaining([...both.allowedHosts!]),
    });
  });

  it('keeps either side alone when the other is open, and refuses everything when the host lists never meet', () => {
    expect(tightenUrlPolicy({}, STRICT_URL_POLICY)).toEqual({ allowPrivateNetworks: false });
    expect(tightenUrlPolicy({ allowedPorts: [8080] }, {})).toEqual({ allowedPorts: [8080] });
    const none = tightenUrlPolicy({ allowedHosts: ['a.test'] }, { allowedHosts: ['b.test'] });
    expect(none.allowedHosts).toEqual([]);
    expect(allows('http://a.test/', none)).toBe(false);
    expect(
      tightenUrlPolicy({ allowedHosts: ['127.0.0.1'] }, { allowedHosts: ['[::ffff:127.0.0.1]'] }).allowedHosts,
    ).toEqual(['127.0.0.1', '::ffff:127.0.0.1']);
  });
});
