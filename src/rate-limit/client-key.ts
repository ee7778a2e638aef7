import { isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one. */
function ipv6Groups(address: string): number[] | undefined {
  if (!isIPv6(address)) return undefined;
  const [head = '', tail] = address.split('::') as [string, string | undefined];
  const parse = (part: string): number[] => {
    if (!part) return [];
    const groups: number[] = [];
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const [a = 0, b = 0, c = 0, d = 0] = piece.split('.').map(Number);
        groups.push((a << 8) | b, (c << 8) | d);
      } else groups.push(parseInt(piece, 16));
    }
    return groups;
  };
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * The key a client is counted under: its IPv4 address, or the /64 network of an IPv6 address
 * (one subscriber usually holds a whole /64, so counting single addresses would be no limit at
 * all). IPv4-mapped IPv6 addresses count as the IPv4 address.
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  const groups = ipv6Groups(address);
  if (!groups) return address;
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
