/**
 * /robots.txt: crawlers may read every page and preview; the API, the MCP endpoint, the bulk
 * exports and addresses with a query (searches, filters, pages of results: endless combinations
 * of the same records) are left to programs. The sitemap lists every page.
 */
export function robotsText(baseUrl: string): string {
  return `# Model Works Archive · 模型作品档案馆
# Programs: use the API (${baseUrl}/openapi.json), the exports or the agent guide (${baseUrl}/en/llms.txt).
User-agent: *
Disallow: /api/
Disallow: /mcp
Disallow: /data/
Disallow: /en/data/
Disallow: /*?
Allow: /

Sitemap: ${baseUrl}/sitemap.xml
`;
}
