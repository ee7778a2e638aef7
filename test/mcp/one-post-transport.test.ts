import { expect } from 'chai';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import { OnePostTransport } from '../../src/mcp/one-post-transport.ts';

describe('the transport of one MCP POST', () => {
  it('stops the requests still running when it closes, and settles the POST as closed', async () => {
    const server = new Server({ name: 'slow', version: '1' }, { capabilities: { tools: {} } });
    let running: (signal: AbortSignal) => void = () => undefined;
    const signal = new Promise<AbortSignal>((resolve) => {
      running = resolve;
    });
    server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => {
      running(extra.signal);
      return new Promise<ListToolsResult>(() => undefined);
    });
    const transport = new OnePostTransport();
    await server.connect(transport);
    const answer = transport.deliver([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]);
    const handlerSignal = await signal;
    expect(transport.settled, 'a request is still running').to.equal(false);
    await transport.close();
    expect(await answer).to.deep.equal({ kind: 'closed' });
    expect(handlerSignal.aborted, 'the running handler is told to stop').to.equal(true);
  });

  it('hands the calls of a batch over one turn of the event loop apart, so what waits on the loop runs between them', async () => {
    const server = new Server({ name: 'plain', version: '1' }, { capabilities: { tools: {} } });
    const events: string[] = [];
    server.setRequestHandler(ListToolsRequestSchema, () => {
      events.push('call');
      return { tools: [] };
    });
    const transport = new OnePostTransport();
    await server.connect(transport);
    // Another request of the worker, already waiting on the event loop when the batch comes.
    setImmediate(() => events.push('other'));
    const answer = await transport.deliver([1, 2, 3].map((id) => ({ jsonrpc: '2.0' as const, id, method: 'tools/list' })));
    expect(events).to.deep.equal(['call', 'other', 'call', 'call']);
    expect(answer.kind === 'responses' && Array.isArray(answer.body) ? answer.body.map((response) => 'id' in response && response.id) : []).to.deep.equal([1, 2, 3]);
  });

  it('answers only the requests it delivered, each once', async () => {
    const server = new Server({ name: 'plain', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
    const transport = new OnePostTransport();
    await server.connect(transport);
    const answer = transport.deliver([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', id: 2, method: 'ping' }]);
    // A response to no request of this POST, and a second one to a request already answered, are not part of its answer.
    await transport.send({ jsonrpc: '2.0', id: 99, result: {} });
    expect(await answer).to.deep.equal({ kind: 'responses', body: [{ jsonrpc: '2.0', id: 1, result: { tools: [] } }, { jsonrpc: '2.0', id: 2, result: {} }] });
    await transport.send({ jsonrpc: '2.0', id: 1, result: { tools: ['again'] } });
    expect(transport.settled).to.equal(true);
  });
});
