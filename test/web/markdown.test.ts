import { expect } from 'chai';
import { localizeRecord } from '../../src/domain/localize.ts';
import { recordMarkdown } from '../../src/web/markdown.ts';
import { makeRecord } from '../helpers/factories.ts';

describe('the Markdown twin of a record page', () => {
  const media = [{ path: 'ab/ab12.png', width: 10, height: 20, sha256: 'a'.repeat(64), thumbnailPath: 'ab/ab12.thumb.webp' }];

  it('keeps a title that closes brackets inside its image\'s alt text: the image still loads from the archive', () => {
    const record = makeRecord({ mediaStatus: 'local-media', media, title: { zh: '鹈鹕', en: 'Pelican x](https://evil.example/track.png) and [a](javascript:alert(8))' } });
    const markdown = recordMarkdown(localizeRecord(record, 'en', 'https://archive.test'), 'en');
    const image = markdown.split('\n').find((line) => line.startsWith('!['));
    expect(image).to.equal('![Pelican x\\](https://evil.example/track.png) and \\[a\\](javascript:alert(8))](https://archive.test/media/ab/ab12.png)');
    expect(markdown.split('\n')[0]).to.equal('# Pelican x\\](https://evil.example/track.png) and \\[a\\](javascript:alert(8))');
  });

  it('keeps one-line fields on their line, and a notes line starting "* " from becoming a list item', () => {
    const record = makeRecord({ author: 'Author\r\nInjected: header', model: 'GPT\n- Fake: fact', title: { zh: '标题', en: 'Two\nlines' }, notes: { zh: '说明', en: 'First line.\n* not an item\n+ nor this' } });
    const lines = recordMarkdown(localizeRecord(record, 'en', 'https://archive.test'), 'en').split('\n');
    expect(lines[0]).to.equal('# Two lines');
    expect(lines).to.include('- Author: Author Injected: header').and.include('- Model: GPT - Fake: fact');
    expect(lines).to.include('\\* not an item').and.include('\\+ nor this');
  });
});
