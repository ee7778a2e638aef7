/** A catalog file that cannot be imported, with every problem found in it. */
export class CatalogFileError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid catalog file:\n- ${problems.slice(0, 20).join('\n- ')}${problems.length > 20 ? `\n- … and ${problems.length - 20} more` : ''}`);
    this.name = 'CatalogFileError';
  }
}
