/**
 * The MCP answers' size in an agent's context, counted as tokens ≈ bytes / 4 of the whole JSON-RPC
 * answer: tools/list, and a 20-result search_specimens in each language. The same budgets are
 * asserted by test/mcp/mcp.test.ts on the demo catalog; here they are measured on the bench's
 * synthetic catalog.
 */
import { MCP_HEADERS, MCP_PATH } from './queries.ts';

/** The budgets: a 20-result search and tools/list. */
export const TOKEN_BUDGETS = { search: 2000, toolsList: 1600 } as const;

export interface TokenFigures {
  toolsList: number;
  searches: { label: string; tokens: number }[];
}

async function answerTokens(origin: string, method: string, params?: object): Promise<number> {
  const response = await fetch(`${origin}${MCP_PATH}`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) }), signal: AbortSignal.timeout(10_000) });
  const body = await response.text();
  if (response.status !== 200 || !body.includes('"result"')) throw new Error(`${method} answered ${response.status}: ${body.slice(0, 300)}`);
  return Math.ceil(Buffer.byteLength(body) / 4);
}

/** Measures the budgets against a running server. */
export async function measureTokens(origin: string): Promise<TokenFigures> {
  const search = (args: object) => answerTokens(origin, 'tools/call', { name: 'search_specimens', arguments: { limit: 20, ...args } });
  return {
    toolsList: await answerTokens(origin, 'tools/list'),
    searches: [
      { label: '20 results, en', tokens: await search({ lang: 'en' }) },
      { label: '20 results, zh', tokens: await search({}) },
      { label: '20 results, en, q, format and year facets', tokens: await search({ lang: 'en', q: 'pelican', facets: ['format', 'year'] }) },
    ],
  };
}

/** One line per figure, with its budget and PASS or MISS. */
export function printTokens(figures: TokenFigures): void {
  const verdict = (tokens: number, budget: number): string => `${tokens.toLocaleString('en-US')} tokens (budget ${budget.toLocaleString('en-US')}) ${tokens <= budget ? 'PASS' : 'MISS'}`;
  console.log(`MCP token budgets (bytes / 4 of the JSON-RPC answer):`);
  console.log(`      tools/list: ${verdict(figures.toolsList, TOKEN_BUDGETS.toolsList)}`);
  for (const search of figures.searches) console.log(`      search_specimens, ${search.label}: ${verdict(search.tokens, TOKEN_BUDGETS.search)}`);
}
