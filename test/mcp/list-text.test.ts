import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ListResponse } from '../../src/domain/specimens.ts';
import { LIST_RESULT_BYTES } from '../../src/mcp/compact.ts';
import { startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';
import { callTool, connectMcpClient } from '../helpers/mcp-client.ts';

/** The text content of a tool result. */
function textOf(result: CallToolResult): string {
  return result.content[0]?.type === 'text' ? result.content[0].text : '';
}

describe('what the text of an MCP list result tells an agent that sees only the text', function () {
  let server: TestServer;
  let client: Client;

  before(async () => {
    server = await startTestServer({ demo: true });
    client = await connectMcpClient(server.baseUrl);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const lines = async (name: string, args: Record<string, unknown>): Promise<string[]> => textOf(await callTool(client, name, args)).split('\n');

  describe('an empty result', () => {
    it('names the labels of records that mention a model label no record has, and that model is a whole label', async () => {
      const [count, hint, ...rest] = await lines('search_specimens', { model: ['Claude'], format: ['svg'], lang: 'en' });
      expect(count).to.equal('0 matching records; none on this page.');
      expect(hint).to.match(/^No record has the model "Claude": model matches whole labels, case aside\. Labels of the records that mention it, with their number: .*Claude 3 Opus \(2\).* and \d+ more\. facets:\["model"\] lists the labels there are\.$/);
      expect(rest).to.have.length(1);
    });

    it('names the creators of records that mention a creator no record has', async () => {
      const [, hint] = await lines('search_specimens', { author: 'demo_tomas', lang: 'en' });
      expect(hint).to.equal('No record has the author "demo_tomas": author matches whole labels, case aside. Creators of the records that mention it, with their number: @demo_tomas (3).');
    });

    it('says every word of q must match, and how to widen it', async () => {
      const [count, hint] = await lines('search_specimens', { q: 'pelican bicycle by zebra', lang: 'en' });
      expect(count).to.match(/^0 matching records/);
      expect(hint).to.equal('Every word of q must match, small ones such as "by" too: fewer words, or a OR b, widen it.');
      expect((await lines('search_specimens', { q: 'zebra', lang: 'en' }))[1]).to.equal('q matches the records that hold its word, in either language: another word, or a OR b, widens it.');
    });

    it('says filters combine when each label exists, and nothing when a sync finds nothing new', async () => {
      const [, hint, last] = await lines('search_specimens', { model: 'GPT-4o', format: 'game', q: 'snake game', lang: 'en' });
      expect(hint).to.equal('Filters combine with AND: drop one to widen; facets count each value with its own filter left out.');
      expect(last).to.match(/^Every word of q must match/);
      expect(await lines('search_specimens', { since: '2099-01-01' })).to.have.length(2);
      expect((await lines('search_specimens', { model: 'GPT-4o', lang: 'en' }))[1]).to.match(/^1\. /);
    });

    it('says a work looked up by its address is not archived, not that filters combine', async () => {
      const [, hint] = await lines('search_specimens', { sourceUrl: 'https://x.com/nobody/status/1', kind: ['gallery'] });
      expect(hint).to.match(/^The archive holds no record of the work at that address \(any form of it was looked up\)/);
    });
  });
  describe('a page of records', () => {
    const recordLines = (text: string): string[] => text.split('\n').filter((line) => /^\d+\. /.test(line));

    it('puts the fields asked into each record\'s line, in the order asked', async () => {
      const result = await callTool(client, 'search_specimens', { q: '鹈鹕', fields: ['source', 'sourceUrl'] });
      const { items } = result.structuredContent as unknown as ListResponse;
      expect(items.length).to.be.above(1);
      const lines = recordLines(textOf(result));
      items.forEach((item, i) => expect(lines[i]).to.match(new RegExp(`\\[${item.id}\\]; source: ${item.source}; sourceUrl: ${item.sourceUrl.replace(/[.?*+()[\]]/g, '\\$&')}$`)));
      const plain = recordLines(textOf(await callTool(client, 'search_specimens', { q: '鹈鹕' })));
      for (const line of plain) expect(line).to.match(/\]$/);
      // Media as their addresses, a list of none or a null as none.
      const media = await callTool(client, 'search_specimens', { q: '鹈鹕', fields: ['media', 'thumbnail'] });
      const withMedia = recordLines(textOf(media));
      const mediaItems = (media.structuredContent as unknown as ListResponse).items;
      expect(mediaItems.some((item) => item.media.length > 0) && mediaItems.some((item) => item.media.length === 0)).to.equal(true);
      mediaItems.forEach((item, i) => expect(withMedia[i]).to.include(`; media: ${item.media.map((one) => one.url).join(', ') || 'none'}; thumbnail: ${item.thumbnail ?? 'none'}`));
    });

    it('keeps a full page with a short asked field within the budget, the excerpts giving way', async () => {
      for (const lang of ['zh', 'en']) {
        const result = await callTool(client, 'search_specimens', { lang, limit: 20, fields: ['source'] });
        expect(Buffer.byteLength(JSON.stringify({ content: result.content, structuredContent: result.structuredContent })), lang).to.be.at.most(LIST_RESULT_BYTES);
        expect(recordLines(textOf(result)), lang).to.have.length(20);
      }
    });

    it('names each record\'s kind where the page holds both kinds, and only there', async () => {
      const mixed = await callTool(client, 'search_specimens', { q: 'pelican', lang: 'en' });
      const { items } = mixed.structuredContent as unknown as ListResponse;
      expect(new Set(items.map((item) => item.kind))).to.have.property('size', 2);
      recordLines(textOf(mixed)).forEach((line, i) => expect(line).to.include(`, ${items[i]?.kind} [${items[i]?.id}]`));
      for (const line of recordLines(textOf(await callTool(client, 'search_specimens', { q: 'pelican', kind: 'gallery', lang: 'en' })))) expect(line).to.not.match(/, gallery \[/);
    });
  });

  describe('get_specimen', () => {
    it('says when the source has deleted the work, beside its source address', async () => {
      const { items } = (await callTool(client, 'search_specimens', { q: 'solar system', lang: 'en', fields: ['mediaStatus', 'sourceUrl'] })).structuredContent as unknown as ListResponse;
      const deleted = items.find((item) => item.mediaStatus === 'deleted-source');
      const kept = items.find((item) => item.mediaStatus !== 'deleted-source');
      expect(deleted && kept).to.not.equal(undefined);
      expect((await lines('get_specimen', { id: deleted?.id, lang: 'en' }))[1]).to.equal(`Source (deleted at the source): ${deleted?.sourceUrl}`);
      expect((await lines('get_specimen', { id: kept?.id, lang: 'en' }))[1]).to.equal(`Source: ${kept?.sourceUrl}`);
    });
  });
});
