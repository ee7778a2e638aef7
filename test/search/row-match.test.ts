import { expect } from 'chai';
import Database from 'better-sqlite3';
import { holdsPhrase, isCertainText, phraseTokens, rowTokens } from '../../src/search/sqlite/row-match.ts';
import { indexText, quote } from '../../src/search/sqlite/text.ts';
import { seededRandom } from '../../src/random.ts';

const COLUMNS = ['title', 'notes'];

describe('testing a row against a phrase without FTS5', () => {
  it('matches a phrase in the named columns only, the last token as a prefix when asked', () => {
    const row = rowTokens(COLUMNS, [indexText('The Paper Lantern'), indexText('a lantern, folded')]);
    expect(row).to.not.equal(undefined);
    if (!row) return;
    expect(holdsPhrase(row, { columns: ['title'], tokens: ['paper', 'lantern'], prefix: false })).to.equal(true);
    expect(holdsPhrase(row, { columns: ['title'], tokens: ['lantern', 'paper'], prefix: false })).to.equal(false);
    expect(holdsPhrase(row, { columns: ['title'], tokens: ['fold'], prefix: true })).to.equal(false);
    expect(holdsPhrase(row, { columns: ['notes'], tokens: ['fold'], prefix: true })).to.equal(true);
    expect(holdsPhrase(row, { columns: ['notes'], tokens: ['fold'], prefix: false })).to.equal(false);
    expect(holdsPhrase(row, { columns: ['title', 'notes'], tokens: ['paper', 'lant'], prefix: true })).to.equal(true);
  });

  it('declines text whose tokens it cannot be sure of', () => {
    expect(isCertainText('Café — “quoted”, 纸灯笼。')).to.equal(true);
    expect(isCertainText('Ørsted')).to.equal(false);
    expect(isCertainText('straße')).to.equal(false);
    expect(isCertainText('emoji 🏮')).to.equal(false);
    expect(rowTokens(COLUMNS, ['fine', 'İstanbul'])).to.equal(undefined);
    expect(phraseTokens('ﬁre')).to.equal(undefined);
    expect(phraseTokens('１２３')).to.equal(undefined);
    expect(phraseTokens('--')).to.equal(undefined);
  });

  it('answers as FTS5 (unicode61, remove_diacritics 2) does, on 3,000 generated rows and phrases', () => {
    const db = new Database(':memory:');
    db.exec('CREATE VIRTUAL TABLE t USING fts5(title, notes, tokenize = "unicode61 remove_diacritics 2")');
    const insert = db.prepare('INSERT INTO t (rowid, title, notes) VALUES (?, ?, ?)');
    const matches = db.prepare('SELECT 1 FROM t WHERE t MATCH ? AND rowid = ?').pluck();
    const random = seededRandom(42);
    const words = ['lantern', 'Lantern', 'LANTERNS', 'café', 'Cafe', 'ÉCLAIR', 'éclair', 'naïve', 'x2', '3d', 'don’t', 'co-op', 'foo_bar', 'a.b', '纸灯笼', '灯笼', '动画', 'Ünïcödé', '«guillemets»', '¿qué?', 'ångström', 'ÿ', '（括号）', 'mid·dot', 'tab\tsep'];
    const pick = (): string => words[Math.floor(random() * words.length)] as string;
    const text = (): string => Array.from({ length: 1 + Math.floor(random() * 6) }, pick).join(random() < 0.5 ? ' ' : ', ');
    let compared = 0;
    let matched = 0;
    for (let rowid = 1; rowid <= 3000; rowid += 1) {
      const values = [indexText(text()), indexText(text())];
      insert.run(BigInt(rowid), values[0], values[1]);
      const row = rowTokens(COLUMNS, values);
      expect(row, values.join(' | ')).to.not.equal(undefined);
      if (!row) continue;
      const phraseText = indexText(Array.from({ length: 1 + Math.floor(random() * 2) }, pick).join(' ')).trim();
      const tokens = phraseTokens(phraseText);
      if (!tokens) continue;
      const prefix = random() < 0.3;
      const cut = prefix ? tokens.map((token, i) => (i === tokens.length - 1 ? token.slice(0, Math.max(1, token.length - 2)) : token)) : tokens;
      const columns = random() < 0.5 ? ['title'] : COLUMNS;
      const expression = `{${columns.join(' ')}} : ${quote(cut.join(' '))}${prefix ? ' *' : ''}`;
      const expected = matches.get(expression, BigInt(rowid)) !== undefined;
      expect(holdsPhrase(row, { columns, tokens: cut, prefix }), `${expression} against ${values.join(' | ')}`).to.equal(expected);
      compared += 1;
      if (expected) matched += 1;
    }
    expect(compared).to.be.above(2500);
    expect(matched).to.be.above(200);
  });
});
