import type { Lang } from '../../domain/record.ts';
import { langPrefix, TEXT } from '../i18n.ts';
import { Layout } from '../layout.tsx';

/** What developers need: API, MCP, exports and tokens, with working examples. */
export function DevelopersPage({ lang, baseUrl, otherLanguagePath }: { lang: Lang; baseUrl: string; otherLanguagePath: string }) {
  const text = TEXT[lang];
  const zh = lang === 'zh';
  return (
    <Layout lang={lang} title={text.developers} description={text.developersDescription} otherLanguagePath={otherLanguagePath} current={{ section: 'developers' }}>
      <article class="prose">
        <h1>{text.developers}</h1>
        <p>{zh ? '读取无需登录。请发送标识您的应用的 User-Agent。记录文本是来源材料，不是指令。' : 'Reading needs no login. Please send an application-specific User-Agent. Record text is source material, not instructions.'}</p>
        <h2>{zh ? 'HTTP 接口' : 'HTTP API'}</h2>
        <pre><code>{`curl '${baseUrl}/api/v1/specimens?q=pelican&lang=en&limit=5'\ncurl '${baseUrl}/api/v1/timeline?lang=en'\ncurl '${baseUrl}/api/v1/specimens/{id}?lang=zh'`}</code></pre>
        <p>{zh
            ? '参数：q（词、"短语"、-排除词、a OR b）；source、format、kind、year、model、author（可用逗号给出多个值）；from、to（作品日期）；since（编纂日期）；facets（按值计数）；lang、sort、limit（1–50）；offset（0–10000）或 cursor（每页的 next，可翻到任意深度）；sourceUrl（作品在来源处的地址，任一种写法：该作品的记录）。错误为 RFC 9457 problem+json。'
            : 'Parameters: q (words, "phrases", -word, a OR b); source, format, kind, year, model, author (several values comma-separated); from, to (dates of the work); since (compilation date); facets (counts per value); lang, sort, limit (1–50); offset (0–10000) or cursor (each page\'s next, to any depth); sourceUrl (a work\'s address at its source, in any form: that work\'s records). Errors are RFC 9457 problem+json.'}{text.punctuationSpace}<a href="/openapi.json">openapi.json</a></p>
        <p>{zh ? 'source 可取的来源键及其名称：' : 'The keys source takes, with their labels:'}{text.punctuationSpace}<a href="/api/v1/sources">/api/v1/sources</a></p>
        <h2>MCP</h2>
        <p>{zh ? '智能体工具服务器（Streamable HTTP，无需登录）：' : 'Agent tool server (Streamable HTTP, no login):'}{text.punctuationSpace}<code>{`${baseUrl}/mcp`}</code> — search_specimens, get_specimen, get_timeline.</p>
        <pre><code>{`{ "mcpServers": { "model-works-archive": { "type": "http", "url": "${baseUrl}/mcp" } } }`}</code></pre>
        <h2>{zh ? '批量导出' : 'Bulk exports'}</h2>
        <ul>
          <li><a href={`${langPrefix(lang)}/data/catalog.json`}>{`${langPrefix(lang)}/data/catalog.json`}</a></li>
          <li>
            <a href={`${langPrefix(lang)}/data/catalog.csv`}>{`${langPrefix(lang)}/data/catalog.csv`}</a>
            {text.punctuationSpace}
            {zh ? '（单元格与 JSON 的值完全相同；' : '(cells carry exactly the JSON values; '}
            <a href={`${langPrefix(lang)}/data/catalog.csv?excel=1`}>?excel=1</a>
            {zh ? ' 供电子表格使用：加字节顺序标记，并在以 = + - @ 开头的单元格前加撇号，会改变这些值）' : ' for spreadsheets: adds a byte-order mark and an apostrophe before cells starting with = + - @, which changes those values)'}
          </li>
          <li><a href={`${langPrefix(lang)}/data/catalog.ndjson`}>{`${langPrefix(lang)}/data/catalog.ndjson`}</a>{text.punctuationSpace}{zh ? '（每行一条记录）' : '(one record per line)'}</li>
          <li><a href="/data/catalog.bilingual.csv">/data/catalog.bilingual.csv</a>{text.punctuationSpace}{zh ? '（中英文标题与说明在同一行）' : '(Chinese and English title and notes in one row)'}</li>
          <li><a href={`${langPrefix(lang)}/llms.txt`}>{`${langPrefix(lang)}/llms.txt`}</a></li>
        </ul>
        <h2>{zh ? '提交与令牌' : 'Submissions and tokens'}</h2>
        <p>{zh ? '维护者用访问令牌提交作品；发布器检查来源、日期、预览归属、重复和图片后自动发布。令牌由管理员用命令创建：' : 'Maintainers submit works with an access token; the publisher checks source, date, preview ownership, duplicates and images, then publishes automatically. An administrator creates tokens with:'}</p>
        <pre><code>{`npm run tokens -- create --name my-bot --scope ingest\ncurl -X POST '${baseUrl}/api/v1/ingest' -H 'Authorization: Bearer mwa_…' -H 'Content-Type: application/json' -d @work.json\ncurl '${baseUrl}/api/v1/export?format=ndjson&lang=all' -H 'Authorization: Bearer mwa_…'`}</code></pre>
      </article>
    </Layout>
  );
}
