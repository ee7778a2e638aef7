import { randomBytes } from 'node:crypto';

/** The mark written with a change number (CatalogState.changeStamp): twelve random hex digits, as the schema's migration writes them too. */
export function newChangeStamp(): string {
  return randomBytes(6).toString('hex');
}
