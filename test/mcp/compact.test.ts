import { expect } from 'chai';
import { localizeRecord } from '../../src/domain/localize.ts';
import type { ListResponse } from '../../src/domain/specimens.ts';
import { compactListResult, EXCERPT_BYTES, LIST_RESULT_BYTES } from '../../src/mcp/compact.ts';
import type { ExtraField, ListResult } from '../../src/mcp/compact.ts';
import { makeRecord } from '../helpers/factories.ts';

const BASE = 'http://127.0.0.1:8080';
const LONG_NOTES = 'An interactive scene drawn in one file, with a lighthouse, gulls over the water and a slow tide. '.repeat(4);

function page(count: number, title: (i: number) => string): ListResponse {
  const items = Array.from({ length: count }, (_, i) => localizeRecord(makeRecord({ title: { zh: title(i), en: title(i) }, notes: { zh: LONG_NOTES, en: LONG_NOTES } }), 'en', BASE));
  return { total: 120_000, offset: 0, limit: count, items, next: 'Ar21cx8263yzFOoPCxoPc3ZnLW8zLWYxYzU0MTkwAwICAgcAAgAAAT_rNGejyu5oAT_rNGejyu5o', facets: { year: { 2024: 2589, 2018: 2526, 2022: 2523 } } };
}

const bytesOf = ({ list, text }: ListResult): number => Buffer.byteLength(JSON.stringify({ content: [{ type: 'text', text }], structuredContent: list }));
const notesOf = ({ list }: ListResult): (string | undefined)[] => list.items.map((item) => item.notes);

describe('compact list results of the MCP list tools', () => {
  it('keeps 64-byte excerpts when the page fits the budget', () => {
    const result = compactListResult(page(5, (i) => `Lighthouse ${i}`));
    expect(bytesOf(result)).to.be.at.most(LIST_RESULT_BYTES);
    for (const notes of notesOf(result)) expect(Buffer.byteLength(notes ?? '')).to.be.within(EXCERPT_BYTES - 12, EXCERPT_BYTES);
    expect(result.text).to.not.include('Notes excerpts');
  });

  it('shortens every excerpt alike so a full page fits the budget', () => {
    const title = (i: number): string => `Lighthouse over a slow tide with gulls, number ${i}`;
    const result = compactListResult(page(20, title));
    expect(bytesOf(compactListResult(page(20, title), ['notes'])), 'the page with whole notes is over the budget').to.be.above(LIST_RESULT_BYTES);
    expect(bytesOf(result)).to.be.at.most(LIST_RESULT_BYTES);
    const lengths = notesOf(result).map((notes) => Buffer.byteLength(notes ?? ''));
    expect(Math.max(...lengths)).to.be.below(EXCERPT_BYTES - 12);
    expect(Math.min(...lengths)).to.be.at.least(20);
    for (const notes of notesOf(result)) expect(LONG_NOTES.startsWith(String(notes).replace(/…$/, ''))).to.equal(true);
    // The summary says so, and how to get the notes whole, within the same budget.
    expect(result.text.split('\n')).to.include('Notes excerpts shortened to fit the budget; whole notes: add "notes" to fields or call get_specimen.');
  });

  it('cuts a page exactly when its answer would pass the budget, whatever its text escapes to', () => {
    // Notes and titles whose JSON differs from their text: quotes, backslashes, control characters, Chinese, an emoji.
    const notes = '他说 "look\\here"\ttab\u0001 and 🐦 gulls over the water, a slow tide and a lighthouse that stands.';
    const base = page(20, (i) => `"Lighthouse" \\ ${i} 灯塔`);
    const items = base.items.map((item) => ({ ...item, notes }));
    const fitting = compactListResult({ ...base, items });
    expect(fitting.text, 'the page without padding is within the budget').to.not.include('Notes excerpts');
    // The url is in structuredContent only, so each character added to it adds one byte to the answer.
    const padded = (extra: number): ListResponse => ({ ...base, items: items.map((item, i) => (i === 0 ? { ...item, url: `${item.url}?${'x'.repeat(extra)}` } : item)) });
    const room = LIST_RESULT_BYTES - bytesOf(fitting) - 1;
    expect(room, 'the padding needs room').to.be.above(0);
    const atBudget = compactListResult(padded(room));
    expect(bytesOf(atBudget)).to.equal(LIST_RESULT_BYTES);
    expect(atBudget.text, 'a page of exactly the budget is not cut').to.not.include('Notes excerpts');
    const overBudget = compactListResult(padded(room + 1));
    expect(overBudget.text, 'a page one byte over is cut').to.include('Notes excerpts shortened');
    expect(bytesOf(overBudget)).to.be.at.most(LIST_RESULT_BYTES);
  });

  it('leaves the excerpts out when short ones would not bring the page within the budget', () => {
    const result = compactListResult(page(20, (i) => `${'A very long title that goes on and on about a lighthouse '.repeat(2)}${i}`));
    expect(notesOf(result).every((notes) => notes === undefined)).to.equal(true);
    expect(result.text).to.match(/^120000 matching records; 1–20:/);
    expect(result.text.split('\n')).to.include('Notes excerpts left out to fit the budget; whole notes: add "notes" to fields or call get_specimen.');
  });

  it('says nothing of the excerpts when there were no notes to cut', () => {
    const list = page(20, (i) => `${'A very long title that goes on and on about a lighthouse '.repeat(3)}${i}`);
    const result = compactListResult({ ...list, items: list.items.map((item) => ({ ...item, notes: '' })) });
    expect(notesOf(result).every((notes) => notes === undefined), 'the budget left the (empty) excerpts out').to.equal(true);
    expect(result.text).to.not.include('Notes excerpts');
  });

  it('answers asked fields whole, whatever their size', () => {
    const list = page(20, (i) => `Lighthouse ${i}`);
    for (const fields of [['notes'], ['all']] as ExtraField[][]) {
      const result = compactListResult(list, fields);
      expect(bytesOf(result)).to.be.above(LIST_RESULT_BYTES);
      expect(notesOf(result)).to.deep.equal(list.items.map((item) => item.notes));
      expect(result.text).to.not.include('Notes excerpts');
    }
  });
});
