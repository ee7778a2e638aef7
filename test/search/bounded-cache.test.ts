import { expect } from 'chai';
import { BoundedCache } from '../../src/bounded-cache.ts';
import { seededRandom } from '../../src/random.ts';

describe('bounded cache', () => {
  it('never holds more than its bound, and keeps what was used within the last half-bound of insertions', () => {
    const cache = new BoundedCache<string>(1000, (key, value) => key.length + value.length);
    const random = seededRandom(5);
    const recent: string[] = [];
    for (let i = 0; i < 5000; i += 1) {
      const key = `k${Math.floor(random() * 400)}`;
      if (cache.get(key) === undefined) cache.set(key, 'v'.repeat(1 + Math.floor(random() * 20)));
      recent.push(key);
      expect(cache.bytes).to.be.at.most(1000);
    }
    // The last few keys used are all still there.
    for (const key of recent.slice(-10)) expect(cache.get(key), key).to.not.equal(undefined);
  });

  it('replaces and deletes entries with their sizes', () => {
    const cache = new BoundedCache<string>(100, (key, value) => key.length + value.length);
    cache.set('a', 'xxxx');
    cache.set('a', 'yy');
    expect(cache.bytes).to.equal(3);
    expect(cache.get('a')).to.equal('yy');
    cache.delete('a');
    expect(cache.bytes).to.equal(0);
    expect(cache.get('a')).to.equal(undefined);
    cache.set('big', 'z'.repeat(60));
    expect(cache.get('big')).to.equal(undefined);
  });
});
