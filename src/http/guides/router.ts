import Router from '@koa/router';
import type { Lang } from '../../domain/record.ts';
import { guideText } from '../../guides/llms-text.ts';
import type { GuideSettings } from '../../guides/llms-text.ts';
import { openApiDocument } from '../../openapi/document.ts';
import { readOnly, sendWithEntityTag } from '../read-route.ts';
import { entityTag } from '../response-cache.ts';

/**
 * GET /llms.txt (Chinese) and /en/llms.txt (English): the agent guide, as Markdown; GET
 * /openapi.json: the machine-readable description. Query parameters (utm_… on shared links) are ignored.
 */
export function guidesRouter(baseUrl: string, maxAgeSeconds: number, guide: GuideSettings): Router {
  const router = new Router();
  for (const [path, lang] of [['/llms.txt', 'zh'], ['/en/llms.txt', 'en']] as [string, Lang][]) {
    const text = guideText(lang, baseUrl, guide);
    const etag = entityTag(text);
    router.all(path, async (ctx) => {
      if (readOnly(ctx) === 'handled') return;
      sendWithEntityTag(ctx, text, etag, 'text/markdown; charset=utf-8', maxAgeSeconds);
    });
  }
  // Made at the first request (its examples render a demo preview), once per process; a failure is tried again by the next request.
  let openApi: Promise<{ body: string; etag: string }> | undefined;
  const describe = async (): Promise<{ body: string; etag: string }> => {
    const body = JSON.stringify(await openApiDocument(baseUrl));
    return { body, etag: entityTag(body) };
  };
  router.all('/openapi.json', async (ctx) => {
    if (readOnly(ctx) === 'handled') return;
    openApi ??= describe().catch((error: unknown) => {
      openApi = undefined;
      throw error;
    });
    const { body, etag } = await openApi;
    sendWithEntityTag(ctx, body, etag, 'application/json; charset=utf-8', maxAgeSeconds);
  });
  return router;
}
