/**
 * Classification of IP addresses for the media fetcher's SSRF guard: only globally routable unicast
 * addresses are "public"; everything else (private, loopback, link-local, CGNAT, multicast, reserved,
 * IPv4 embedded in IPv6 pointing at any of those, …) is refused unless private addresses are allowed.
 */
import { isIP } from 'node:net';

/** What kind of address an IP is; only 'public' may be fetched from by default. */
export type AddressCategory =
  | 'public'
  | 'unspecified'
  | 'this-network'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'protocol-assignments'
  | 'documentation'
  | 'benchmark'
  | 'multicast'
  | 'reserved'
  | 'broadcast'
  | 'unique-local'
  | 'site-local'
  | 'invalid';

/** Decides whether a resolved address may be connected to. */
export type AddressPolicy = (address: string, category: AddressCategory) => boolean;

/** The default policy: public addresses only. */
export const publicOnly: AddressPolicy = (_address, category) => category === 'public';

/** The policy that lets everything valid through (tests, a private deployment's own media host). */
export const anyAddress: AddressPolicy = (_address, category) => category !== 'invalid';

function parsePart(part: string): number | undefined {
  if (part === '') return undefined;
  if (/^0[xX][0-9a-fA-F]*$/.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]*$/.test(part)) return parseInt(part, 8);
  if (/^[1-9][0-9]*$/.test(part)) return parseInt(part, 10);
  return undefined;
}

/**
 * Parses an IPv4 address in any form inet_aton and the WHATWG URL parser accept: dotted quad, fewer parts
 * (127.1, 10.1.2), a single 32-bit number (2130706433), hexadecimal (0x7f000001, 0x7f.0.0.1) and octal
 * (0177.0.0.1) parts. Returns the address as an unsigned 32-bit number, or undefined.
 */
export function parseIPv4(text: string): number | undefined {
  const trimmed = text.endsWith('.') ? text.slice(0, -1) : text;
  const parts = trimmed.split('.');
  if (parts.length < 1 || parts.length > 4) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    const value = parsePart(part);
    if (value === undefined || !Number.isFinite(value)) return undefined;
    numbers.push(value);
  }
  const last = numbers.pop() as number;
  if (numbers.some((value) => value > 255)) return undefined;
  if (last >= 256 ** (4 - numbers.length)) return undefined;
  let address = 0;
  numbers.forEach((value, i) => {
    address += value * 256 ** (3 - i);
  });
  return address + last;
}

/** Dotted-quad text of an unsigned 32-bit IPv4 address. */
export function formatIPv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

/** Parses an IPv6 address (with or without brackets, zone id or trailing dotted IPv4) into eight 16-bit groups. */
export function parseIPv6(text: string): number[] | undefined {
  let body = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = body.indexOf('%');
  if (zone >= 0) body = body.slice(0, zone);
  if (isIP(body) !== 6) return undefined;
  let tail: number[] = [];
  const lastColon = body.lastIndexOf(':');
  const maybeV4 = body.slice(lastColon + 1);
  if (maybeV4.includes('.')) {
    const v4 = parseIPv4(maybeV4) as number;
    tail = [v4 >>> 16, v4 & 0xffff];
    body = body.slice(0, lastColon + 1);
    if (!body.endsWith('::')) body = body.slice(0, -1);
  }
  const [head, rest] = body.includes('::') ? (body.split('::') as [string, string]) : [body, undefined];
  const groups = (value: string): number[] => (value === '' ? [] : value.split(':').map((group) => parseInt(group, 16)));
  const first = groups(head);
  const second = rest === undefined ? [] : groups(rest);
  const missing = 8 - tail.length - first.length - second.length;
  if (rest === undefined && missing !== 0) return undefined;
  if (missing < 0) return undefined;
  const all = [...first, ...new Array<number>(rest === undefined ? 0 : missing).fill(0), ...second, ...tail];
  return all.length === 8 && all.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? all : undefined;
}

function inRange(address: number, base: string, bits: number): boolean {
  const start = parseIPv4(base) as number;
  const size = 2 ** (32 - bits);
  return address >= start && address < start + size;
}

/** The category of an IPv4 address given as an unsigned 32-bit number. */
export function classifyIPv4(address: number): AddressCategory {
  if (address === 0) return 'unspecified';
  if (address === 0xffffffff) return 'broadcast';
  if (inRange(address, '0.0.0.0', 8)) return 'this-network';
  if (inRange(address, '10.0.0.0', 8)) return 'private';
  if (inRange(address, '100.64.0.0', 10)) return 'cgnat';
  if (inRange(address, '127.0.0.0', 8)) return 'loopback';
  if (inRange(address, '169.254.0.0', 16)) return 'link-local';
  if (inRange(address, '172.16.0.0', 12)) return 'private';
  if (inRange(address, '192.0.0.0', 24)) return 'protocol-assignments';
  if (inRange(address, '192.0.2.0', 24)) return 'documentation';
  if (inRange(address, '192.88.99.0', 24)) return 'reserved';
  if (inRange(address, '192.168.0.0', 16)) return 'private';
  if (inRange(address, '198.18.0.0', 15)) return 'benchmark';
  if (inRange(address, '198.51.100.0', 24)) return 'documentation';
  if (inRange(address, '203.0.113.0', 24)) return 'documentation';
  if (inRange(address, '224.0.0.0', 4)) return 'multicast';
  if (inRange(address, '240.0.0.0', 4)) return 'reserved';
  return 'public';
}

/** The category of an IPv6 address given as eight 16-bit groups. */
export function classifyIPv6(groups: readonly number[]): AddressCategory {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const embedded = ((g6 << 16) | g7) >>> 0;
  const zeroTo = (n: number): boolean => groups.slice(0, n).every((group) => group === 0);
  if (zeroTo(8)) return 'unspecified';
  if (zeroTo(7) && g7 === 1) return 'loopback';
  // ::ffff:a.b.c.d (IPv4-mapped) and ::ffff:0:a.b.c.d (IPv4-translated) reach the IPv4 address.
  if ((zeroTo(5) && g5 === 0xffff) || (zeroTo(4) && g4 === 0xffff && g5 === 0)) return classifyIPv4(embedded);
  // ::a.b.c.d (IPv4-compatible, deprecated): never a legitimate public destination.
  if (zeroTo(6)) {
    const inner = classifyIPv4(embedded);
    return inner === 'public' ? 'reserved' : inner;
  }
  // 64:ff9b::/96, NAT64 well-known prefix: the IPv4 address decides.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return classifyIPv4(embedded);
  // 64:ff9b:1::/48, local-use NAT64: translates into the operator's own network.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'reserved';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  if ((g0 & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'site-local';
  // Only 2000::/3 is global unicast; the rest (100::/64 discard, …) is reserved.
  if ((g0 & 0xe000) !== 0x2000) return 'reserved';
  // 2002::/16, 6to4: the IPv4 address in bits 16–47 decides.
  if (g0 === 0x2002) return classifyIPv4(((g1 << 16) | g2) >>> 0);
  if (g0 === 0x2001 && g1 === 0x0db8) return 'documentation';
  // 2001::/23: IETF protocol assignments (Teredo, benchmarking 2001:2::/48, ORCHID, …).
  if (g0 === 0x2001 && g1 < 0x0200) return 'protocol-assignments';
  if (g0 === 0x3fff && g1 < 0x1000) return 'documentation';
  return 'public';
}

/**
 * The category of an IP address written in any form: dotted or short or numeric IPv4, IPv6 with or
 * without brackets and zone. Text that is no IP address at all is 'invalid'.
 */
export function classifyAddress(address: string): AddressCategory {
  const text = address.trim();
  const v6 = parseIPv6(text);
  if (v6) return classifyIPv6(v6);
  const v4 = parseIPv4(text);
  if (v4 !== undefined) return classifyIPv4(v4);
  return 'invalid';
}

/** The IP address a URL host names literally (any IPv4 notation, bracketed IPv6), normalised; undefined for a name. */
export function literalAddress(host: string): string | undefined {
  const unbracketed = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(unbracketed)) return unbracketed;
  if (/^[0-9a-fA-FxX.]+$/.test(unbracketed)) {
    const v4 = parseIPv4(unbracketed);
    if (v4 !== undefined) return formatIPv4(v4);
  }
  return undefined;
}
