import Router from '@koa/router';
import { PROBLEM_TYPES, ProblemError, problemTypeText } from '../../errors.ts';
import type { ProblemType } from '../../errors.ts';
import { readOnly, sendWithEntityTag } from '../read-route.ts';
import { entityTag } from '../response-cache.ts';

/**
 * GET /problems/{name}: the documentation of each problem type, as Markdown. Every problem body's
 * `type` is one of these addresses, and RFC 9457 asks that it lead a person to what it means.
 */
export function problemsRouter(baseUrl: string, maxAgeSeconds: number): Router {
  const router = new Router();
  const names = Object.keys(PROBLEM_TYPES) as ProblemType[];
  const texts = new Map(names.map((name) => [name, problemTypeText(name, baseUrl)]));
  router.all('/problems/:name', async (ctx) => {
    if (readOnly(ctx) === 'handled') return;
    const text = texts.get(ctx.params.name as ProblemType);
    if (text === undefined) throw new ProblemError('not-found', `No problem type is named "${ctx.params.name}". Types: ${names.join(', ')}.`);
    sendWithEntityTag(ctx, text, entityTag(text), 'text/markdown; charset=utf-8', maxAgeSeconds);
  });
  return router;
}
