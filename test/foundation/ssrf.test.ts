// The SSRF guard: every IPv6 form that smuggles a private IPv4 address, the tunnels it cannot
// see through, the ordinary private ranges, and DNS answers that mix public and private.
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { guardedLookup, safeFetch, type Resolver } from '../../src/ingest/fetch.js';
import { isPrivateAddress } from '../../src/ingest/net-guard.js';

const PRIVATE = {
  'v4 loopback': ['127.0.0.1', '127.255.255.254'],
  'v4 private': ['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1'],
  'v4 link-local / metadata': ['169.254.169.254'],
  'v4 CGNAT, this-network, reserved, benchmarking, docs': ['100.64.0.1', '0.0.0.0', '0.1.2.3', '192.0.0.8', '198.18.0.1', '192.0.2.1', '198.51.100.7', '203.0.113.9', '240.0.0.1'],
  'v4 multicast / broadcast': ['224.0.0.1', '239.255.255.250', '255.255.255.255'],
  'v6 loopback / unspecified': ['::1', '::', '[::1]'],
  'v6 unique-local / link-local / multicast': ['fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'ff02::1'],
  'v6 documentation / discard / outside 2000::/3': ['2001:db8::1', '100::1', '4000::1'],
  '6to4 embedding private v4': ['2002:7f00:1::', '2002:a00:1::1', '2002:c0a8:101::', '2002:a9fe:a9fe::1'],
  'IPv4-compatible': ['::127.0.0.1', '::7f00:1', '::10.0.0.1', '::169.254.169.254'],
  'IPv4-mapped (dotted and hex)': ['::ffff:127.0.0.1', '::ffff:7f00:1', '::FFFF:A9FE:A9FE', '::ffff:192.168.0.1', '[::ffff:10.0.0.1]'],
  'SIIT (::ffff:0:0:0/96)': ['::ffff:0:7f00:1', '::ffff:0:10.0.0.1'],
  'NAT64 well-known prefix embedding private v4': ['64:ff9b::7f00:1', '64:ff9b::10.0.0.1', '64:ff9b::a9fe:a9fe'],
  'NAT64 local-use prefix (RFC 8215)': ['64:ff9b:1::1', '64:ff9b:1:ffff::8.8.8.8'],
  Teredo: ['2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  'not an address': ['localhost', 'example.com', '', '1.2.3', '::g'],
};

const PUBLIC = ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1'];

describe('isPrivateAddress', () => {
  for (const [form, list] of Object.entries(PRIVATE)) {
    it(`refuses ${form}`, () => {
      for (const ip of list) expect(isPrivateAddress(ip), ip).toBe(true);
    });
  }
  it('lets public unicast through, including public v4 in mapped, NAT64 and 6to4 forms', () => {
    for (const ip of PUBLIC) expect(isPrivateAddress(ip), ip).toBe(false);
  });
});

function canned(answers: Record<string, LookupAddress[]>): Resolver {
  return (host, _opts, cb) => {
    const a = answers[host];
    if (!a) return cb(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), []);
    cb(null, a);
  };
}

function lookupOnce(resolver: Resolver, host: string, allowPrivate = false): Promise<{ err: NodeJS.ErrnoException | null; address?: string }> {
  const lookup = guardedLookup(allowPrivate, resolver);
  return new Promise((resolve) => lookup(host, { family: 0 }, (err, address) => resolve({ err, address: address as string })));
}

describe('guarded DNS lookup (the one http.request uses at connect time)', () => {
  const dns = canned({
    'public.test': [{ address: '93.184.216.34', family: 4 }, { address: '2606:2800:220:1::1', family: 6 }],
    'mixed-v4.test': [{ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }],
    'mixed-v6.test': [{ address: '93.184.216.34', family: 4 }, { address: '::ffff:7f00:1', family: 6 }],
    'private-last.test': [{ address: '8.8.8.8', family: 4 }, { address: '1.1.1.1', family: 4 }, { address: '2002:a00:1::', family: 6 }],
    'teredo.test': [{ address: '2001:0:4136:e378:8000:63bf:3fff:fdd2', family: 6 }],
  });

  it('answers a host whose addresses are all public', async () => {
    const r = await lookupOnce(dns, 'public.test');
    expect(r.err).toBeNull();
    expect(r.address).toBe('93.184.216.34');
  });

  it('refuses a host whose answer mixes public and private addresses, whatever the order or form', async () => {
    for (const host of ['mixed-v4.test', 'mixed-v6.test', 'private-last.test', 'teredo.test']) {
      const r = await lookupOnce(dns, host);
      expect(r.err?.code, host).toBe('EPRIVATE');
    }
  });

  it('lets everything through when the operator allows private fetches', async () => {
    const r = await lookupOnce(dns, 'mixed-v4.test', true);
    expect(r.err).toBeNull();
  });

  it('safeFetch refuses literal private addresses in every form before connecting', async () => {
    const server = http.createServer((_q, s) => s.end('secret'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '[::127.0.0.1]', '[2002:7f00:1::]', '[64:ff9b::7f00:1]', '0x7f000001', '2130706433']) {
        await expect(safeFetch(`http://${host}:${port}/`), host).rejects.toMatchObject({ name: 'FetchError', transient: false });
      }
      // The control: the same server is reachable when private fetches are allowed.
      const ok = await safeFetch(`http://127.0.0.1:${port}/`, { allowPrivate: true });
      expect(ok.bytes.toString()).toBe('secret');
    } finally {
      server.close();
    }
  });
});
