// Server-side request forgery guard: a capture URL may not reach this machine or its
// private network unless the operator allows it (RHIZOME_ALLOW_PRIVATE_FETCH=1).
// Address ranges come from ipaddr.js; only the IPv6 forms that carry an IPv4 address
// (mapped, compatible, SIIT, 6to4, NAT64) are unwrapped here and judged by their IPv4.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type V4 = ipaddr.IPv4;
type V6 = ipaddr.IPv6;

/** IPv4 is public only in ipaddr.js's `unicast` range (not private, loopback, CGNAT, reserved...). */
function privateV4(a: V4): boolean {
  return a.range() !== 'unicast';
}

function v4FromBytes(b: number[]): V4 {
  return new ipaddr.IPv4(b);
}

/** The IPv4 address an IPv6 form embeds, or null when it embeds none. */
function embeddedV4(a: V6): V4 | null {
  const bytes = a.toByteArray();
  const parts = a.parts;
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), ::ffff:0:a.b.c.d (SIIT), 64:ff9b::/96 (NAT64)
  if (a.isIPv4MappedAddress()) return a.toIPv4Address();
  if (parts.slice(0, 6).every((p) => p === 0)) return v4FromBytes(bytes.slice(12));
  if (a.match(ipaddr.parseCIDR('::ffff:0:0:0/96'))) return v4FromBytes(bytes.slice(12));
  if (a.match(ipaddr.parseCIDR('64:ff9b::/96'))) return v4FromBytes(bytes.slice(12));
  if (a.match(ipaddr.parseCIDR('2002::/16'))) return v4FromBytes(bytes.slice(2, 6)); // 6to4
  return null;
}

function privateV6(a: V6): boolean {
  if (a.range() === 'unspecified' || a.range() === 'loopback') return true;
  const v4 = embeddedV4(a);
  if (v4) return privateV4(v4);
  // Local-use NAT64 (RFC 8215) translates into the operator's own network; Teredo tunnels
  // to an address the guard cannot see: both refused.
  if (a.match(ipaddr.parseCIDR('64:ff9b:1::/48'))) return true;
  if (a.range() === 'teredo') return true;
  // Only global unicast (2000::/3) that ipaddr.js calls plain unicast is public.
  if (!a.match(ipaddr.parseCIDR('2000::/3'))) return true;
  return a.range() !== 'unicast';
}

/** True for loopback, private, link-local, unspecified, multicast and reserved addresses. */
export function isPrivateAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  // Only the standard notations (node:net's isIP): legacy forms like `1.2.3` or `0x7f.1` are
  // refused rather than guessed at (URLs arrive already normalised by the WHATWG parser).
  if (!isIP(bare)) return true;
  let addr: V4 | V6;
  try {
    addr = ipaddr.parse(bare);
  } catch {
    return true;
  }
  return addr.kind() === 'ipv4' ? privateV4(addr as V4) : privateV6(addr as V6);
}
