import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
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
    });

    it('says filters combine when each label exists, and nothing when a sync finds nothing new', async () => {
      const [, hint, last] = await lines('search_specimens', { model: 'GPT-4o', format: 'game', q: 'snake game', lang: 'en' });
      expect(hint).to.equal('Filters combine with AND: drop one to widen; facets count each value with its own filter left out.');
      expect(last).to.match(/^Every word of q must match/);
      expect(await lines('search_specimens', { since: '2099-01-01' })).to.have.length(2);
      expect((await lines('search_specimens', { model: 'GPT-4o', lang: 'en' }))[1]).to.match(/^1\. /);
    });
  });
});
