import { expect } from 'chai';
import { asTrigramPhrase, indexText, isTrigramBlockToken, parseQuery, TRIGRAM_BLOCK_SEPARATOR, typoBudget } from '../../src/search/sqlite/text.ts';
import { orCombinations, parseSearchText, queryWords, runsAsWords, runWords } from '../../src/search/search-text.ts';
import { damerauDistance } from '../../src/search/edit-distance.ts';
import { Vocabulary } from '../../src/search/sqlite/typo.ts';
import { dayBase, dayNumber, keyBetween, SLOTS_PER_DAY, spreadKeys } from '../../src/search/sqlite/sort-key.ts';

describe('embedded search text handling', () => {
  it('indexes Chinese runs as overlapping bigrams plus the last character, then each run of three or more as trigrams behind a separator', () => {
    const separator = TRIGRAM_BLOCK_SEPARATOR;
    expect(indexText('一只鹈鹕骑车')).to.equal(` 一只 只鹈 鹈鹕 鹕骑 骑车 车  ${separator} 一只鹈 只鹈鹕 鹈鹕骑 鹕骑车`);
    expect(indexText('GPT-4o 画的鹈鹕')).to.equal(`gpt-4o  画的 的鹈 鹈鹕 鹕  ${separator} 画的鹈 的鹈鹕`);
    expect(indexText('鹈鹕，灯塔')).to.equal(' 鹈鹕 鹕 , 灯塔 塔 ');
    expect(indexText('甲乙丙，乙丙丁')).to.equal(` 甲乙 乙丙 丙 , 乙丙 丙丁 丁  ${separator} 甲乙丙 ${separator} 乙丙丁`);
    expect(indexText('pelican')).to.equal('pelican');
  });

  it('asks a chain of CJK bigrams as its trigrams, and any other phrase as it is', () => {
    expect(asTrigramPhrase(['骑自', '自行', '行车'])).to.deep.equal(['骑自行', '自行车']);
    expect(asTrigramPhrase(['自行', '行车'])).to.deep.equal(['自行车']);
    expect(asTrigramPhrase(['鹈鹕'])).to.deep.equal(['鹈鹕']);
    // Bigrams that do not chain (a quoted phrase of two runs), words, and a mix are left alone.
    expect(asTrigramPhrase(['鹈鹕', '灯塔'])).to.deep.equal(['鹈鹕', '灯塔']);
    expect(asTrigramPhrase(['gpt', '4o'])).to.deep.equal(['gpt', '4o']);
    expect(asTrigramPhrase(['鹈鹕', 'pelican'])).to.deep.equal(['鹈鹕', 'pelican']);
    expect([isTrigramBlockToken('骑自行'), isTrigramBlockToken(TRIGRAM_BLOCK_SEPARATOR), isTrigramBlockToken('鹈鹕'), isTrigramBlockToken('gpt')]).to.deep.equal([true, true, false, false]);
  });

  it('knows the tokens of trigram blocks but never offers one as a completion', () => {
    const vocabulary = new Vocabulary(
      ['灯塔', '塔', '灯塔水', TRIGRAM_BLOCK_SEPARATOR, '塔水', '塔水彩'].map((term) => ({ term, documents: 3 })),
      () => false,
    );
    expect(vocabulary.withPrefix('灯', 10)).to.deep.equal(['灯塔']);
    expect(vocabulary.withPrefix('塔', 10)).to.deep.equal(['塔', '塔水']);
    expect(vocabulary.withPrefix('塔', 1)).to.equal(undefined);
    expect([vocabulary.holds('灯塔水'), vocabulary.holds('塔水彩'), vocabulary.holds('灯塔彩')]).to.deep.equal([true, true, false]);
    vocabulary.add(['高塔水', '高塔']);
    expect(vocabulary.withPrefix('高', 10)).to.deep.equal(['高塔']);
    expect(vocabulary.holds('高塔水')).to.equal(true);
  });

  it('parses words, punctuation-joined phrases and Chinese substrings', () => {
    expect(parseQuery('Pelican  bicycle')).to.deep.equal([
      { type: 'word', word: 'pelican', last: false },
      { type: 'word', word: 'bicycle', last: true },
    ]);
    expect(parseQuery('gpt-4o')).to.deep.equal([{ type: 'phrase', tokens: ['gpt', '4o'], prefixLast: true }]);
    // A run of three characters or more carries its words, which the typo tier also matches apart.
    expect(parseQuery('骑自行车')).to.deep.equal([{ type: 'phrase', tokens: ['骑自', '自行', '行车'], prefixLast: false, words: ['自行'] }]);
    for (const run of ['鹈鹕', '骑车']) expect(parseQuery(run)[0], run).to.not.have.property('words');
    expect(parseSearchText('"骑自行车"').groups[0]?.alternatives[0]?.[0], 'quoted').to.not.have.property('words');
    expect(parseQuery('鹕')).to.deep.equal([{ type: 'phrase', tokens: ['鹕'], prefixLast: true }]);
    expect(parseQuery('"*) OR (')).to.deep.equal([{ type: 'phrase', tokens: ['or'], prefixLast: false, quoted: true }]);
    expect(parseQuery('Ｐｅｌｉｃａｎ')).to.deep.equal([{ type: 'word', word: 'pelican', last: true }]);
  });

  it('takes a run apart into its words of two characters or more, which the typo tier matches each anywhere', () => {
    expect(runWords('黄昏的灯塔')).to.deep.equal(['黄昏', '灯塔']);
    expect(runWords('鹈鹕骑自行车')).to.deep.equal(['鹈鹕', '自行']);
    // One word, two characters, single characters alone: nothing to take apart.
    for (const run of ['望远镜', '鹈鹕', '车的鹈', '甲甲甲']) expect(runWords(run), run).to.equal(undefined);
    const terms = parseQuery('黄昏的灯塔 鹈鹕 pelican');
    // Taken apart, each word is a run of its own; the other terms stay as they were.
    const apart = runsAsWords(terms) ?? [];
    expect(apart.map((term) => (term.type === 'phrase' ? term.tokens : [term.word]))).to.deep.equal([['黄昏'], ['灯塔'], ['鹈鹕'], ['pelican']]);
    expect(runsAsWords(parseQuery('鹈鹕 pelican')), 'no run with words').to.equal(undefined);
  });

  it('reads the quotation marks a Chinese input method writes as phrase quotes', () => {
    const quoted = { type: 'phrase', tokens: ['骑车'], prefixLast: false, quoted: true };
    for (const text of ['“骑车”', '「骑车」', '『骑车』', '＂骑车＂']) expect(parseSearchText(text).groups, text).to.deep.equal([{ alternatives: [[quoted]] }]);
    expect(parseSearchText('鹈鹕“骑车”').groups).to.deep.equal([{ alternatives: [[{ type: 'phrase', tokens: ['鹈鹕'], prefixLast: false }]] }, { alternatives: [[quoted]] }]);
    expect(parseSearchText('鹈鹕 -「骑车」').excluded).to.deep.equal([quoted]);
    // A closing mark alone is punctuation.
    expect(parseSearchText('骑车”').groups).to.deep.equal([{ alternatives: [[{ type: 'phrase', tokens: ['骑车'], prefixLast: false }]] }]);
  });

  it('reads quoted phrases, -exclusions, OR between terms and mixed scripts', () => {
    const word = (text: string, last = false) => ({ type: 'word', word: text, last });
    expect(parseSearchText('"Pelican Bicycle" -crow -"big fish"')).to.deep.equal({
      groups: [{ alternatives: [[{ type: 'phrase', tokens: ['pelican', 'bicycle'], prefixLast: false, quoted: true }]] }],
      excluded: [word('crow'), { type: 'phrase', tokens: ['big', 'fish'], prefixLast: false, quoted: true }],
      label: '"pelican bicycle" -crow -"big fish"',
    });
    expect(parseSearchText('svg OR game pelican').groups).to.deep.equal([{ alternatives: [[word('svg')], [word('game')]] }, { alternatives: [[word('pelican', true)]] }]);
    // OR only joins two terms; anywhere else it is the word "or".
    expect(parseSearchText('OR').groups).to.deep.equal([{ alternatives: [[word('or', true)]] }]);
    expect(parseSearchText('pelican OR').groups).to.deep.equal([{ alternatives: [[word('pelican')]] }, { alternatives: [[word('or', true)]] }]);
    expect(parseSearchText('a or b').groups).to.have.length(3);
    expect(parseSearchText('pelican -bi')).to.deep.include({ groups: [{ alternatives: [[word('pelican')]] }], excluded: [word('bi')] });
    // After an exclusion OR is a word too: it does not join the term before the exclusion.
    expect(parseSearchText('pelican -bicycle OR lighthouse')).to.deep.include({ groups: [{ alternatives: [[word('pelican')]] }, { alternatives: [[word('or')]] }, { alternatives: [[word('lighthouse', true)]] }], excluded: [word('bicycle')] });
    // A CJK character alone at the end of a quoted phrase is a prefix, as outside quotes.
    expect(parseSearchText('"鹈"').groups).to.deep.equal([{ alternatives: [[{ type: 'phrase', tokens: ['鹈'], prefixLast: true, quoted: true }]] }]);
    expect(parseSearchText('"鹈鹕"').groups).to.deep.equal([{ alternatives: [[{ type: 'phrase', tokens: ['鹈鹕'], prefixLast: false, quoted: true }]] }]);
    expect(parseSearchText('鹈鹕pelican').groups).to.deep.equal([{ alternatives: [[{ type: 'phrase', tokens: ['鹈鹕'], prefixLast: false }, word('pelican', true)]] }]);
    // A quoted phrase steps from one CJK run to the next through the run's last character, as the index writes each run.
    expect(parseSearchText('"亮起，光束"').groups).to.deep.equal([{ alternatives: [[{ type: 'phrase', tokens: ['亮起', '起', '光束'], prefixLast: false, quoted: true }]] }]);
    expect(parseSearchText('"灯塔亮 起 x"').groups).to.deep.equal([{ alternatives: [[{ type: 'phrase', tokens: ['灯塔', '塔亮', '亮', '起', 'x'], prefixLast: false, quoted: true }]] }]);
    expect(parseSearchText('"x，光"').groups).to.deep.equal([{ alternatives: [[{ type: 'phrase', tokens: ['x', '光'], prefixLast: true, quoted: true }]] }]);
    expect(parseSearchText('GPT-4').label).to.equal('gpt-4');
    expect(orCombinations(parseSearchText('a OR b c OR d OR e'))).to.equal(6);
  });

  it('counts the words of a query, and those of its phrases (quoted, joined by punctuation, excluded too)', () => {
    expect(queryWords('pelican bicycle')).to.deep.equal({ all: 2, inPhrases: 0 });
    expect(queryWords('gpt-4o pelican')).to.deep.equal({ all: 3, inPhrases: 2 });
    expect(queryWords('"a pelican riding" -"a bicycle" -crow')).to.deep.equal({ all: 6, inPhrases: 5 });
    // A run of Chinese characters is one word; a Chinese run beside Latin words splits them apart.
    expect(queryWords('鹈鹕骑自行车 灯塔')).to.deep.equal({ all: 2, inPhrases: 0 });
    expect(queryWords('"亮起，光束" gpt画的鹈鹕')).to.deep.equal({ all: 4, inPhrases: 2 });
    expect(queryWords('lighthouse OR telescope')).to.deep.equal({ all: 3, inPhrases: 0 });
    // Counted as searched, in normal form: ⒜ is (a).
    expect(queryWords('⒜⒜⒜')).to.deep.equal({ all: 3, inPhrases: 3 });
    expect(queryWords('a-b-c d.e')).to.deep.equal({ all: 5, inPhrases: 5 });
  });

  it('allows one typo from 5 letters and two from 9', () => {
    expect([typoBudget('cats'), typoBudget('horse'), typoBudget('elephant'), typoBudget('telescope')]).to.deep.equal([0, 1, 1, 2]);
  });

  it('measures Damerau distance with transpositions and stops early', () => {
    expect(damerauDistance('pelican', 'pelican', 2)).to.equal(0);
    expect(damerauDistance('pelican', 'pelcian', 2)).to.equal(1);
    expect(damerauDistance('pelican', 'pelicn', 2)).to.equal(1);
    expect(damerauDistance('pelican', 'pelikan', 2)).to.equal(1);
    expect(damerauDistance('pelican', 'banana', 2)).to.equal(3);
  });

  it('finds typo candidates and prefix completions in the vocabulary', () => {
    const vocabulary = new Vocabulary(
      [
        { term: 'pelican', documents: 10 },
        { term: 'pelicans', documents: 3 },
        { term: 'pelican2', documents: 1 },
        { term: 'telescope', documents: 4 },
      ],
      (term) => /^[a-z]+$/.test(term),
    );
    expect(vocabulary.candidates('pelcian', 1)).to.deep.equal(['pelican']);
    expect(vocabulary.candidates('telecsope', 2)).to.deep.equal(['telescope']);
    expect(vocabulary.withPrefix('pel', 10)).to.deep.equal(['pelican', 'pelican2', 'pelicans']);
    expect(vocabulary.withPrefix('pel', 2)).to.equal(undefined);
    expect(vocabulary.withPrefix('zzz', 2)).to.deep.equal([]);
  });

  it('never offers a typo candidate whose digits differ from the word\'s', () => {
    const vocabulary = new Vocabulary(['qwen3', 'qwen2', 'qwen', 'gpt4o'].map((term) => ({ term, documents: 1 })), (term) => /^[a-z0-9]+$/.test(term));
    expect(vocabulary.candidates('qwne3', 1)).to.deep.equal(['qwen3']);
    expect(vocabulary.candidates('qwen3', 1)).to.deep.equal([]);
    expect(vocabulary.candidates('gpt4p', 1)).to.deep.equal(['gpt4o']);
  });

  it('splits a word into two the index holds, each of two characters or one digit', () => {
    const vocabulary = new Vocabulary(['gpt', '4o', '4', 'three', 'js', 'a', 'pen', 'claude', '3'].map((term) => ({ term, documents: 1 })), () => true);
    expect(vocabulary.splits('gpt4o', false)).to.deep.equal([['gpt', '4o']]);
    expect(vocabulary.splits('threejs', false)).to.deep.equal([['three', 'js']]);
    expect(vocabulary.splits('claude3', false)).to.deep.equal([['claude', '3']]);
    expect(vocabulary.splits('apen', false), 'a letter alone is no piece').to.deep.equal([]);
    expect(vocabulary.splits('gpt4', false)).to.deep.equal([['gpt', '4']]);
    expect(vocabulary.splits('gptx', false)).to.deep.equal([]);
    expect(vocabulary.splits('jsthree', false), 'a split says nothing of where the words stand').to.deep.equal([['js', 'three']]);
  });

  it('lets the second piece of an open last word begin a word the index holds', () => {
    const vocabulary = new Vocabulary(['gpt', '4o', '4omini', 'three', 'js'].map((term) => ({ term, documents: 1 })), () => true);
    expect(vocabulary.splits('gpt4', false)).to.deep.equal([]);
    expect(vocabulary.splits('gpt4', true)).to.deep.equal([['gpt', '4']]);
    expect(vocabulary.splits('gpt4om', true)).to.deep.equal([['gpt', '4om']]);
    expect(vocabulary.splits('threeja', true), 'a second piece that begins no word').to.deep.equal([]);
  });

  it('takes the terms of new rows into prefix completions and typo candidates, once each', () => {
    const vocabulary = new Vocabulary([{ term: 'pelican', documents: 10 }, { term: 'zebra', documents: 1 }], (term) => /^[a-z]+$/.test(term));
    expect(vocabulary.candidates('pelicam', 1)).to.deep.equal(['pelican']);
    vocabulary.add(['pelicam', 'pelican', 'aardvark', 'pelicam', 'pelota', 'zz9']);
    expect(vocabulary.withPrefix('', 100)).to.deep.equal(['aardvark', 'pelicam', 'pelican', 'pelota', 'zebra', 'zz9']);
    expect(vocabulary.withPrefix('pel', 10)).to.deep.equal(['pelicam', 'pelican', 'pelota']);
    expect(vocabulary.candidates('pelicaz', 1)).to.deep.equal(['pelican', 'pelicam']);
    expect(vocabulary.candidates('zz8', 1)).to.deep.equal([]);
  });

  it('tells a term absent from the index only while it knows every term for certain', () => {
    const vocabulary = new Vocabulary([{ term: 'pelican', documents: 10 }], () => true);
    expect(vocabulary.holds('pelican')).to.equal(true);
    expect(vocabulary.holds('pelicam')).to.equal(false);
    vocabulary.add(['pelicam']);
    expect(vocabulary.holds('pelicam')).to.equal(true);
    // Terms of a row split by JavaScript where unicode61 might split otherwise: absence is no longer known.
    vocabulary.add(['ωmega'], false);
    expect(vocabulary.holds('ωmega')).to.equal(true);
    expect(vocabulary.holds('zebra')).to.equal(undefined);
  });

  it('orders sort keys by date descending, and ids of one day between their neighbours', () => {
    const day = dayNumber('2025-01-01');
    expect(dayBase(dayNumber('2025-01-02'))).to.be.below(dayBase(day));
    const first = keyBetween(day, undefined, undefined) ?? 0;
    const after = keyBetween(day, first, undefined) ?? 0;
    const before = keyBetween(day, undefined, first) ?? 0;
    expect(before).to.be.below(first);
    expect(after).to.be.above(first);
    expect(keyBetween(day, first, first + 1)).to.equal(undefined);
    const spread = spreadKeys(day, 3);
    expect(spread).to.have.length(3);
    expect(spread[2]).to.be.below(dayBase(day) + SLOTS_PER_DAY);
  });
});
