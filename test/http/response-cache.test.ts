import { expect } from 'chai';
import { ResponseCache } from '../../src/http/response-cache.ts';

describe('response cache', () => {
  it('serves an entry only at the change number it was computed at', () => {
    const cache = new ResponseCache(1000);
    cache.set('/a', 1, { body: 'x', etag: '"1"' });
    expect(cache.get('/a', 1)?.body).to.equal('x');
    expect(cache.get('/a', 2)).to.equal(undefined);
    expect(cache.get('/a', 1)).to.equal(undefined);
  });

  it('stays within its byte bound, dropping the least recently used first, and never holds one body above a quarter of it', () => {
    const cache = new ResponseCache(40);
    cache.set('/a', 1, { body: 'a'.repeat(10), etag: '"a"' });
    cache.set('/b', 1, { body: 'b'.repeat(10), etag: '"b"' });
    cache.get('/a', 1);
    cache.set('/c', 1, { body: 'c'.repeat(10), etag: '"c"' });
    cache.set('/d', 1, { body: 'd'.repeat(10), etag: '"d"' });
    expect(cache.size).to.be.at.most(40);
    expect(cache.get('/b', 1)).to.equal(undefined);
    expect(cache.get('/a', 1)?.body).to.equal('a'.repeat(10));
    cache.set('/huge', 1, { body: 'h'.repeat(20), etag: '"h"' });
    expect(cache.get('/huge', 1)).to.equal(undefined);
  });

  it('keeps a response only when its key was asked recently before', () => {
    const cache = new ResponseCache(32_000);
    expect(cache.askedBefore('/api/v1/specimens?q=once')).to.equal(false);
    expect(cache.askedBefore('/api/v1/specimens?q=twice')).to.equal(false);
    expect(cache.askedBefore('/api/v1/specimens?q=twice')).to.equal(true);
    // Many other keys later, the first ones are forgotten: the doorkeeper is bounded too.
    for (let i = 0; i < 2000; i += 1) cache.askedBefore(`/api/v1/specimens?q=other-${i}`);
    expect(cache.askedBefore('/api/v1/specimens?q=once')).to.equal(false);
  });
});
