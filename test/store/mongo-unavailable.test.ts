/**
 * Which MongoDB errors the service answers 503, checked on the driver's own error classes built
 * as the driver builds them from a server's reply.
 */
import { expect } from 'chai';
import { MongoInvalidArgumentError, MongoNetworkError, MongoServerError } from 'mongodb';
import { afterTransactionError } from '../../src/store/mongo/transaction.ts';
import { UNAVAILABLE_CODES, isMongoUnavailable } from '../../src/store/mongo/unavailable.ts';
import { failoverErrors, serverError } from '../helpers/mongo-errors.ts';

describe('MongoDB errors answered as unavailable', () => {
  for (const [name, error] of Object.entries(failoverErrors())) {
    it(`counts ${name}`, () => {
      expect(isMongoUnavailable(error)).to.equal(true);
    });
  }

  it('counts every code the driver retries reads and writes on, and a server past maxTimeMS', () => {
    for (const [code, codeName] of UNAVAILABLE_CODES) expect(isMongoUnavailable(serverError(code, codeName)), codeName).to.equal(true);
  });

  it('counts a pre-4.2 server that answers a state change with a message and no code', () => {
    expect(isMongoUnavailable(new MongoServerError({ ok: 0, errmsg: 'not master' }))).to.equal(true);
    expect(isMongoUnavailable(new MongoServerError({ ok: 0, errmsg: 'no such command' }))).to.equal(false);
  });

  it('counts such an error when another error carries it as its cause', () => {
    expect(isMongoUnavailable(new Error('the write failed', { cause: serverError(189, 'PrimarySteppedDown') }))).to.equal(true);
  });

  it('leaves refusals and defects alone: they are 4xx or 500, not worth a retry', () => {
    const others = [serverError(11000, 'DuplicateKey'), serverError(2, 'BadValue'), serverError(13, 'Unauthorized'), new MongoInvalidArgumentError('bad option'), new Error('a bug'), undefined];
    for (const error of others) expect(isMongoUnavailable(error), String(error)).to.equal(false);
  });
});

describe('MongoDB transaction retries', () => {
  it('runs the whole transaction again after a transient error, in the work or at commit', () => {
    const conflict = serverError(112, 'WriteConflict', ['TransientTransactionError']);
    expect(afterTransactionError(conflict, 'work')).to.equal('retry-transaction');
    expect(afterTransactionError(conflict, 'commit')).to.equal('retry-transaction');
  });

  it('sends the commit again when its outcome is unknown, unless the server ran out of time for it', () => {
    const unknown = new MongoNetworkError('connection closed');
    unknown.addErrorLabel('UnknownTransactionCommitResult');
    expect(afterTransactionError(unknown, 'commit')).to.equal('retry-commit');
    expect(afterTransactionError(serverError(50, 'MaxTimeMSExpired', ['UnknownTransactionCommitResult']), 'commit')).to.equal('give-up');
  });

  it('gives up on anything else', () => {
    expect(afterTransactionError(serverError(11000, 'DuplicateKey'), 'work')).to.equal('give-up');
    expect(afterTransactionError(new Error('a bug'), 'work')).to.equal('give-up');
  });
});
