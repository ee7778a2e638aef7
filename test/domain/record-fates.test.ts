import { expect } from 'chai';
import { reasonSentence } from '../../src/domain/record-fates.ts';

describe('a withdrawal reason as a sentence', () => {
  it('ends a reason without a full stop with one, Chinese after Chinese text', () => {
    expect(reasonSentence('Takedown')).to.equal('Takedown.');
    expect(reasonSentence('作者要求撤下')).to.equal('作者要求撤下。');
    expect(reasonSentence('Asked by "the author"')).to.equal('Asked by "the author".');
  });

  it('keeps a reason that already ends a sentence, closing quotes and brackets included', () => {
    for (const reason of ['Takedown.', 'Really?', '作者要求撤下。', 'He said "take it down."', '（作者要求。）', 'Wait…']) expect(reasonSentence(reason)).to.equal(reason);
  });

  it('puts a reason of several lines on one', () => {
    expect(reasonSentence('Takedown\nasked by the author\r\n')).to.equal('Takedown asked by the author.');
    expect(reasonSentence('')).to.equal('');
  });
});
