import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { syntheticCatalog } from '../../src/catalog/synthetic.ts';
import { INGEST_PROMPT_CATEGORY } from '../../src/domain/ingest/publish.ts';
import { promptCategoryLabel } from '../../src/web/prompt-categories.ts';

describe('prompt category labels', () => {
  it('labels, in both languages, every category the demo, the synthetic catalog and ingest give records', () => {
    const demo = JSON.parse(readFileSync(new URL('../../src/demo/demo-works.json', import.meta.url), 'utf8')) as { promptCategory: string }[];
    const categories = new Set([...demo.map((work) => work.promptCategory), ...Array.from(syntheticCatalog(500, '2026-11-20'), (record) => record.promptCategory), INGEST_PROMPT_CATEGORY]);
    expect(categories.size).to.be.at.least(17);
    for (const slug of categories) {
      const zh = promptCategoryLabel(slug, 'zh');
      const en = promptCategoryLabel(slug, 'en');
      // A label the table gives, not the slug read as words.
      expect(en, slug).to.not.equal(slug.replace(/-/g, ' '));
      expect(zh, slug).to.match(/\p{Script=Han}/u);
    }
    expect(promptCategoryLabel(INGEST_PROMPT_CATEGORY, 'zh')).to.equal('未分类');
  });

  it('reads a category it does not know as its words', () => {
    expect(promptCategoryLabel('kinetic_type-poster', 'en')).to.equal('kinetic type poster');
    expect(promptCategoryLabel('kinetic_type-poster', 'zh')).to.equal('kinetic type poster');
    expect(promptCategoryLabel('constructor', 'en')).to.equal('constructor');
  });
});
