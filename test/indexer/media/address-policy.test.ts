import { expect } from 'chai';
import { classifyAddress, literalAddress, parseIPv4, parseIPv6 } from '../../../indexer/media/address-policy.ts';
import type { AddressCategory } from '../../../indexer/media/address-policy.ts';

describe('address classification for the media fetcher', () => {
  const expectCategories = (cases: [string, AddressCategory][]): void => {
    for (const [address, category] of cases) expect(classifyAddress(address), address).to.equal(category);
  };

  it('parses every IPv4 notation the URL parser and inet_aton accept', () => {
    const loopback = 0x7f000001;
    for (const text of ['127.0.0.1', '2130706433', '0x7f000001', '0X7F000001', '0177.0.0.1', '0x7f.0.0.1', '127.1', '127.0.1', '017700000001', '127.0.0.1.']) {
      expect(parseIPv4(text), text).to.equal(loopback);
    }
    expect(parseIPv4('10.1')).to.equal(0x0a000001);
    expect(parseIPv4('0')).to.equal(0);
    for (const text of ['256.0.0.1', '1.2.3.4.5', '0x100000000', '4294967296', '08.0.0.1', '1..2', '', 'example.com', '1.2.3.-4', '127.0.0.1x']) {
      expect(parseIPv4(text), text).to.equal(undefined);
    }
  });

  it('parses IPv6 with compression, brackets, zones and dotted IPv4 tails', () => {
    expect(parseIPv6('::1')).to.deep.equal([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6('[::ffff:127.0.0.1]')).to.deep.equal([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIPv6('1:2:3:4:5:6:7.8.9.10')).to.deep.equal([1, 2, 3, 4, 5, 6, 0x0708, 0x090a]);
    expect(parseIPv6('fe80::1%eth0')).to.deep.equal([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6('2001:db8::')).to.deep.equal([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6('1::2::3')).to.equal(undefined);
    expect(parseIPv6('127.0.0.1')).to.equal(undefined);
    expect(parseIPv6('12345::1')).to.equal(undefined);
  });

  it('blocks every non-public IPv4 range and allows public addresses next to them', () => {
    expectCategories([
      ['0.0.0.0', 'unspecified'],
      ['0.1.2.3', 'this-network'],
      ['10.0.0.1', 'private'],
      ['10.255.255.255', 'private'],
      ['100.64.0.1', 'cgnat'],
      ['100.127.255.255', 'cgnat'],
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['169.254.169.254', 'link-local'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.0.0.8', 'protocol-assignments'],
      ['192.0.2.10', 'documentation'],
      ['192.168.1.1', 'private'],
      ['198.18.0.1', 'benchmark'],
      ['198.19.255.255', 'benchmark'],
      ['198.51.100.7', 'documentation'],
      ['203.0.113.9', 'documentation'],
      ['224.0.0.251', 'multicast'],
      ['239.255.255.250', 'multicast'],
      ['240.0.0.1', 'reserved'],
      ['255.255.255.254', 'reserved'],
      ['255.255.255.255', 'broadcast'],
      ['8.8.8.8', 'public'],
      ['9.255.255.255', 'public'],
      ['11.0.0.0', 'public'],
      ['100.63.255.255', 'public'],
      ['100.128.0.0', 'public'],
      ['126.255.255.255', 'public'],
      ['128.0.0.0', 'public'],
      ['172.15.255.255', 'public'],
      ['172.32.0.0', 'public'],
      ['198.17.255.255', 'public'],
      ['198.20.0.0', 'public'],
      ['223.255.255.255', 'public'],
    ]);
  });

  it('classifies loopback written in decimal, hexadecimal, octal and short form as loopback', () => {
    for (const text of ['2130706433', '0x7f000001', '0177.0.0.1', '127.1', '0x7f.1']) expect(classifyAddress(text), text).to.equal('loopback');
    expect(classifyAddress('0')).to.equal('unspecified');
    expect(classifyAddress('167772161')).to.equal('private');
  });

  it('blocks non-public IPv6 and IPv4 hidden inside IPv6', () => {
    expectCategories([
      ['::', 'unspecified'],
      ['::1', 'loopback'],
      ['[::1]', 'loopback'],
      ['0:0:0:0:0:0:0:1', 'loopback'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['[::ffff:7f00:1]', 'loopback'],
      ['::ffff:10.1.2.3', 'private'],
      ['::ffff:169.254.169.254', 'link-local'],
      ['::ffff:0:192.168.0.1', 'private'],
      ['::127.0.0.1', 'loopback'],
      ['::7f00:1', 'loopback'],
      ['::8.8.8.8', 'reserved'],
      ['64:ff9b::127.0.0.1', 'loopback'],
      ['64:ff9b::a00:1', 'private'],
      ['64:ff9b:1::1', 'reserved'],
      ['2002:7f00:1::', 'loopback'],
      ['2002:c0a8:101::1', 'private'],
      ['2002:a9fe:a9fe::', 'link-local'],
      ['fc00::1', 'unique-local'],
      ['fd12:3456:789a::1', 'unique-local'],
      ['fe80::1', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
      ['febf::1', 'link-local'],
      ['fec0::1', 'site-local'],
      ['ff02::1', 'multicast'],
      ['ff05::2', 'multicast'],
      ['100::1', 'reserved'],
      ['2001:db8::1', 'documentation'],
      ['2001::1', 'protocol-assignments'],
      ['2001:2::1', 'protocol-assignments'],
      ['3fff::1', 'documentation'],
      ['4000::1', 'reserved'],
    ]);
  });

  it('allows public IPv6, and public IPv4 reached through mapping, NAT64 or 6to4', () => {
    expectCategories([
      ['2606:4700:4700::1111', 'public'],
      ['2001:4860:4860::8888', 'public'],
      ['2a00:1450:4001:80b::200e', 'public'],
      ['::ffff:8.8.8.8', 'public'],
      ['64:ff9b::8.8.8.8', 'public'],
      ['2002:808:808::1', 'public'],
    ]);
  });

  it('says invalid for names and garbage', () => {
    for (const text of ['localhost', 'example.com', '', '1.2.3.4.5', '::g', '[::1']) expect(classifyAddress(text), text).to.equal('invalid');
  });

  it('recognises literal addresses in URL hosts and leaves names alone', () => {
    expect(literalAddress('[::ffff:7f00:1]')).to.equal('::ffff:7f00:1');
    expect(literalAddress('127.0.0.1')).to.equal('127.0.0.1');
    expect(literalAddress('0x7f000001')).to.equal('127.0.0.1');
    expect(literalAddress('2130706433')).to.equal('127.0.0.1');
    expect(literalAddress('example.com')).to.equal(undefined);
    expect(literalAddress('localhost')).to.equal(undefined);
    expect(literalAddress('deadbeef.example')).to.equal(undefined);
  });
});
