import type { Context } from 'koa';
import type { RecordStore } from '../../domain/ports.ts';
import { reasonSentence, resolveRecordId } from '../../domain/record-fates.ts';
import { ProblemError } from '../../errors.ts';

/** Thrown by a read whose record moved: the route answers 301 to where it is now. */
export class RecordMoved extends Error {
  constructor(
    readonly currentId: string,
    readonly reason: string,
  ) {
    super(`moved to ${currentId}`);
  }
}

/**
 * For an id that is not a record: throws RecordMoved when it moved, a 410 problem saying why and
 * where the work came from when it was withdrawn, and a 404 problem when it was never published.
 */
export async function throwRetired(store: Pick<RecordStore, 'getRecord' | 'recordFate'>, id: string): Promise<never> {
  const resolution = await resolveRecordId(store, id);
  if (resolution.status === 'moved') throw new RecordMoved(resolution.currentId, resolution.reason);
  if (resolution.status === 'withdrawn') {
    const { fate } = resolution;
    throw new ProblemError('gone', `${reasonSentence(fate.reason)} It was withdrawn on ${fate.at.slice(0, 10)}; the work was published at ${fate.sourceUrl}.`, {
      extensions: { id, withdrawnAt: fate.at, reason: fate.reason, sourceUrl: fate.sourceUrl, workTitle: fate.title, ...(resolution.movedVia.length ? { movedVia: resolution.movedVia } : {}) },
    });
  }
  throw new ProblemError('not-found', `No record has the id "${id.slice(0, 128)}".`);
}

/**
 * Answers 301 for a moved record: Location and `Link: rel="canonical"` name where it is now (the
 * query string kept), so a citation handed out with the old id keeps working.
 */
export function answerMoved(ctx: Context, moved: RecordMoved, urlOf: (id: string) => string, maxAgeSeconds: number): void {
  const location = `${urlOf(moved.currentId)}${ctx.querystring ? `?${ctx.querystring}` : ''}`;
  ctx.status = 301;
  ctx.set('Location', location);
  ctx.set('Link', `<${location}>; rel="canonical"`);
  ctx.set('Cache-Control', `public, max-age=${maxAgeSeconds}`);
  ctx.body = { id: ctx.params.id, status: 'moved', currentId: moved.currentId, location, reason: moved.reason };
}
