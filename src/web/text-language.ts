import { LANGUAGE_TAG } from './structured-data.ts';

/**
 * The language a text of no recorded language (an author's name as its source writes it) can be
 * marked with, from its letters: Chinese (`zh-Hans`) when they are all Han characters (kana or
 * Hangul beside them would make it Japanese or Korean, which the archive cannot tell apart), English
 * when they are all unaccented Latin letters (`@demo_mira`, `Jane Doe`), and unknown (`''`, which
 * `lang=""` says) otherwise: `Zoë Durand`, `山田たろう`, `张伟 Wei`.
 */
export function languageByScript(text: string): string {
  const letters = text.match(/\p{L}/gu) ?? [];
  if (letters.length === 0) return '';
  if (letters.every((letter) => /\p{Script=Han}/u.test(letter))) return LANGUAGE_TAG.zh;
  if (letters.every((letter) => /[A-Za-z]/.test(letter))) return LANGUAGE_TAG.en;
  return '';
}
