import { expect } from 'chai';
import { FixedWindowCounter } from '../../src/rate-limit/fixed-window.ts';
import { clientKey } from '../../src/rate-limit/client-key.ts';

describe('fixed-window rate counting', () => {
  const policy = { name: 'client', limit: 3, windowMs: 60_000 };

  it('allows the limit per window, then refuses until the window resets', () => {
    const counter = new FixedWindowCounter();
    const decisions = [0, 1, 2, 3].map((offset) => counter.take('a', policy, 1000 + offset));
    expect(decisions.map((decision) => decision.allowed)).to.deep.equal([true, true, true, false]);
    expect(decisions.map((decision) => decision.remaining)).to.deep.equal([2, 1, 0, 0]);
    expect(decisions[3]?.resetMs).to.equal(60_000 - 3);
    expect(counter.take('a', policy, 61_000).allowed).to.equal(true);
    expect(counter.take('a', policy, 61_000).remaining).to.equal(1);
  });

  it('counts keys and policies apart', () => {
    const counter = new FixedWindowCounter();
    for (let i = 0; i < 3; i += 1) counter.take('a', policy, 0);
    expect(counter.take('a', policy, 1).allowed).to.equal(false);
    expect(counter.take('b', policy, 1).allowed).to.equal(true);
    expect(counter.take('a', { ...policy, name: 'ingest' }, 1).allowed).to.equal(true);
  });

  it('sweeps expired windows so memory stays bounded by the active keys', () => {
    const counter = new FixedWindowCounter();
    for (let i = 0; i < 10_001; i += 1) counter.take(`old-${i}`, policy, 0);
    expect(counter.size).to.equal(10_001);
    for (let i = 0; i < 10; i += 1) counter.take(`new-${i}`, policy, 120_000);
    expect(counter.size).to.be.below(100);
  });
});

describe('client keys for rate limits', () => {
  it('counts IPv4 addresses one by one and IPv4-mapped IPv6 as IPv4', () => {
    expect(clientKey('203.0.113.9')).to.equal('203.0.113.9');
    expect(clientKey('::ffff:203.0.113.9')).to.equal('203.0.113.9');
  });

  it('counts an IPv6 address by its /64 network', () => {
    expect(clientKey('2001:db8:1:2:aaaa::1')).to.equal('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).to.equal('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).to.equal('2001:db8:0:0::/64');
    expect(clientKey('::1')).to.equal('0:0:0:0::/64');
  });
});
