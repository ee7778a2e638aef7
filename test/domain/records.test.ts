import { expect } from 'chai';
import { recordId, modelSlug } from '../../src/domain/ids.ts';
import { citationText } from '../../src/domain/citation.ts';
import { localizeRecord } from '../../src/domain/localize.ts';
import { FORMATS, KINDS, LANGS, MEDIA_STATUSES, isCalendarDate } from '../../src/domain/record.ts';
import { validators } from '../../src/validation/schemas.ts';
import searchParams from '../../schemas/search-params.schema.json' with { type: 'json' };
import recordSchema from '../../schemas/record.schema.json' with { type: 'json' };
import { makeRecord } from '../helpers/factories.ts';

describe('records', () => {
  it('derives stable, readable ids from the canonical source URL and kind', () => {
    const id = recordId({ canonicalSourceUrl: 'https://x.com/a/status/1', kind: 'gallery', format: 'svg', model: 'GPT-4o' });
    expect(id).to.match(/^svg-gpt-4o-[0-9a-f]{8}$/);
    expect(recordId({ canonicalSourceUrl: 'https://x.com/a/status/1', kind: 'gallery', format: 'svg', model: 'GPT-4o' })).to.equal(id);
    expect(recordId({ canonicalSourceUrl: 'https://x.com/a/status/1', kind: 'timeline', format: 'svg', model: 'GPT-4o' })).to.not.equal(id);
    expect(modelSlug('Qwen2.5-Coder-32B')).to.equal('qwen2-5-coder-32b');
    expect(modelSlug('智谱')).to.equal('model');
  });

  it('writes citations in the spec format in both languages', () => {
    const work = { title: 'Pelican', author: '@mira', date: '2025-01-02', sourceUrl: 'https://x.com/mira/status/1', url: 'https://archive.test/en/specimens/a/', updated: '2026-11-20' };
    expect(citationText('en', work)).to.equal('"Pelican", @mira, 2025-01-02, https://x.com/mira/status/1; archived in the Model Works Archive, https://archive.test/en/specimens/a/, compiled 2026-11-20.');
    expect(citationText('zh', { ...work, title: '鹈鹕' })).to.equal('《鹈鹕》，@mira，2025-01-02，https://x.com/mira/status/1；收录于模型作品档案馆，https://archive.test/en/specimens/a/，编纂日期 2026-11-20。');
    expect(citationText('en', { ...work, title: 'A "quoted" and “curly” title' }), 'quotes within quotes become single').to.match(/^"A 'quoted' and ‘curly’ title", @mira/);
    expect(citationText('zh', { ...work, title: '论《画》' }), 'title marks within title marks').to.match(/^《论〈画〉》，@mira/);
  });

  it('localizes a record into the documented shape, with prompt only when recorded', () => {
    const record = makeRecord({ title: { zh: '标题', en: 'Title' } });
    const en = localizeRecord(record, 'en', 'https://archive.test');
    expect(validators.record(en), JSON.stringify(validators.record.errors)).to.equal(true);
    expect(en.url).to.equal(`https://archive.test/en/specimens/${record.id}/`);
    expect(en.markdown).to.equal(`https://archive.test/en/specimens/${record.id}/index.md`);
    expect(localizeRecord(record, 'zh', 'https://archive.test').url).to.equal(`https://archive.test/specimens/${record.id}/`);
    expect(en).to.not.have.property('prompt');
    const withPrompt = localizeRecord({ ...record, prompt: 'Draw a pelican' }, 'zh', 'https://archive.test');
    expect(withPrompt.prompt).to.equal('Draw a pelican');
    expect(Object.keys(withPrompt).indexOf('prompt')).to.equal(Object.keys(withPrompt).indexOf('promptCategory') + 1);
  });

  it('never lets control or invisible characters out in record text', () => {
    const record = makeRecord({ title: { zh: '标\u202e题\u0007', en: 'Ti\u200btle\u0000' }, notes: { zh: '第一行\n第二行', en: 'line\u2066 one' } });
    const en = localizeRecord(record, 'en', 'https://archive.test');
    expect(en.title).to.equal('Title');
    expect(en.notes).to.equal('line one');
    expect(localizeRecord(record, 'zh', 'https://archive.test').notes).to.equal('第一行\n第二行');
  });

  it('keeps code enumerations and schemas in agreement', () => {
    expect(searchParams.properties.format.items.enum).to.deep.equal(FORMATS);
    expect(searchParams.properties.kind.items.enum).to.deep.equal(KINDS);
    expect(searchParams.properties.lang.enum).to.deep.equal(LANGS);
    expect(recordSchema.properties.mediaStatus.enum).to.deep.equal(MEDIA_STATUSES);
  });

  it('recognises real calendar dates only', () => {
    expect(isCalendarDate('2024-02-29')).to.equal(true);
    expect(isCalendarDate('2023-02-29')).to.equal(false);
    expect(isCalendarDate('2023-2-1')).to.equal(false);
  });
});
