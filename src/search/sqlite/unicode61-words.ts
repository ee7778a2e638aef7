/**
 * Query words folded exactly as FTS5's unicode61 tokenizer (remove_diacritics 2) folds them, by
 * asking it. JavaScript's lower case and NFD give the same for ASCII and Latin-1 (foldDiacritics,
 * which row-match.ts's certain text relies on), but not beyond: unicode61 keeps й, ё and the Greek
 * tonos (ά), folds ς to σ and ſ to s, and splits words at some marks. A word folded otherwise is
 * looked up in the vocabulary under a form the index never holds: `новый` found no prefix or typo
 * candidates and counted 0 while a page still listed the record.
 */
import Database from 'better-sqlite3';
import { isCertainText } from './row-match.ts';
import { foldDiacritics } from './text.ts';

/** Words kept folded; past it the cache starts again (query words repeat, the rest is rare). */
const CACHE_LIMIT = 10_000;

/** Asks unicode61 for the folded form of words, through a table in a database of its own, in memory. */
class Unicode61Folding {
  private readonly folded = new Map<string, string>();
  private statements: { insert: Database.Statement<[string]>; tokens: Database.Statement<[], { term: string }>; clear: Database.Statement<[]> } | undefined;

  /** The tokens unicode61 makes of a word, joined by a space when it splits it (none: ''). */
  fold(word: string): string {
    const known = this.folded.get(word);
    if (known !== undefined) return known;
    const { insert, tokens, clear } = this.prepared();
    insert.run(word);
    const folded = tokens.all().map((row) => row.term).join(' ');
    clear.run();
    if (this.folded.size >= CACHE_LIMIT) this.folded.clear();
    this.folded.set(word, folded);
    return folded;
  }

  private prepared(): NonNullable<Unicode61Folding['statements']> {
    if (this.statements) return this.statements;
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE words USING fts5(word, tokenize = "unicode61 remove_diacritics 2");
             CREATE VIRTUAL TABLE word_tokens USING fts5vocab(words, 'instance');`);
    this.statements = {
      insert: db.prepare<[string]>('INSERT INTO words(rowid, word) VALUES (1, ?)'),
      tokens: db.prepare<[], { term: string }>('SELECT term FROM word_tokens ORDER BY offset'),
      clear: db.prepare<[]>('DELETE FROM words'),
    };
    return this.statements;
  }
}

const folding = new Unicode61Folding();

/** A query word as the index holds it: JavaScript's folding where it is certain to agree, unicode61's own otherwise. */
export function foldAsIndexed(word: string): string {
  return isCertainText(word) ? foldDiacritics(word) : folding.fold(word);
}
