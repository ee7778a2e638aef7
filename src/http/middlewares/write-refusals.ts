import type { Context, Next } from 'koa';
import type { WriteRefusals } from '../../store/write-refusals.ts';

/** Shows every error a request met to the store's memory of refused writes (read by /readyz), then passes it on to the problem middleware. */
export function noteWriteRefusals(refusals: WriteRefusals) {
  return async function noteWriteRefusalsMiddleware(_ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (error) {
      refusals.note(error);
      throw error;
    }
  };
}
