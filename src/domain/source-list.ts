import type { SourceTable } from './sources.ts';

/** One source as clients read it. Mirrors schemas/source-list.schema.json. */
export interface SourceListItem {
  key: string;
  label: { zh: string; en: string };
  hosts: string[];
}

/** The archive's sources as GET /api/v1/sources answers them. Mirrors schemas/source-list.schema.json. */
export interface SourceList {
  total: number;
  items: SourceListItem[];
}

/** Presents the source table: keys, labels in both languages, hosts (never media hosts or handle rules, which only the publisher needs). */
export function presentSources(table: SourceTable): SourceList {
  const items = table.definitions.map(({ key, label, hosts }) => ({ key, label: { zh: label.zh, en: label.en }, hosts: [...hosts] }));
  return { total: items.length, items };
}
