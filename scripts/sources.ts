/**
 * The source table, kept in the store with the records (no code to edit):
 *   npm run sources -- list
 *   npm run sources -- add --key KEY --host HOST [--host HOST …] [--alias HOST …] [--media-host HOST …]
 *                          [--handle-rule REGEX] [--work-rule REGEX --work-form TEXT] [--keep-param NAME …]
 *                          --label-zh TEXT --label-en TEXT
 *   npm run sources -- remove KEY [--force]
 *   npm run sources -- works
 * add replaces a source with the same key. The first --host is the canonical one; an --alias
 * (one of the hosts) is unified to it in source URLs. --handle-rule is a regular expression over
 * the URL's path whose first group is the account (e.g. '^/@([A-Za-z0-9_]+)/'). --work-rule is a
 * regular expression over the canonical URL's path and query that the address of one work matches
 * (e.g. '^/@[A-Za-z0-9_]+/\\d+$'; the source identity check fails any other address), --work-form
 * how such an address looks, for that failure's message; '' for a built-in key takes any address.
 * remove refuses a
 * source that published records still name, unless --force. The publisher reads the table for
 * every submission, so a change applies at once, also while the server runs.
 * works lists the works that have more than one record of one kind (records published under two
 * forms of one address before the work key rules made them one work, or one of them by a process
 * of an earlier version still running after an upgrade; docs/duplicates.md), the
 * first WORKS_SHOWN of them by work key, each with every record of its work key (either kind): id,
 * kind, model, source key, date and source URL, a timeline record marked as its model's.
 */
import type { Backend, StoreBackend } from '../src/backend.ts';
import { readSubcommand } from './arguments.ts';
import { readCommandLine, runCommand, runStoreCommand, startCommandLine } from './command.ts';
import { BUILT_IN_SOURCE_TABLE, sourceDefinitionProblems, sourceHostConflicts } from '../src/domain/sources.ts';
import type { SourceDefinition } from '../src/domain/sources.ts';
import type { StoredRecord } from '../src/domain/record.ts';

const USAGE =
  'usage: npm run sources -- list | add --key KEY --host HOST [--host …] [--alias HOST …] [--media-host HOST …] [--handle-rule REGEX] [--work-rule REGEX --work-form TEXT] [--keep-param NAME …] --label-zh TEXT --label-en TEXT | remove KEY [--force] | works';

startCommandLine(USAGE);

/** A source as `list` shows it; the parameters kept are the ones its URLs keep (the built-in source's where its stored definition lists none). */
function describe(source: SourceDefinition): string {
  const kept = source.keepParameters ?? BUILT_IN_SOURCE_TABLE.keptParametersOf(source.key);
  const builtIn = source.keepParameters === undefined && kept !== undefined ? ' (the built-in rule)' : '';
  return [
    `${source.key}\t${source.label.en} / ${source.label.zh}`,
    `  hosts: ${source.hosts.join(', ')}${source.aliases?.length ? ` (aliases of ${source.hosts[0]}: ${source.aliases.join(', ')})` : ''}`,
    `  media hosts: ${source.mediaHosts.join(', ') || 'none'}`,
    ...(source.handlePattern ? [`  handle rule: ${source.handlePattern}`] : []),
    ...(source.workPattern ? [`  work rule: ${source.workPattern}${source.workForm ? ` (${source.workForm})` : ''}`] : []),
    ...(kept ? [`  kept parameters: ${kept.join(', ') || 'none (every query parameter is dropped)'}${builtIn}`] : []),
  ].join('\n');
}

/** The works `works` prints at most (by work key), so that a damaged store does not print a million lines. */
const WORKS_SHOWN = 1000;

/** A record's line in a `works` block: what tells the records of one work apart when choosing which to withdraw. */
function describeWorkRecord(record: StoredRecord): string {
  const timeline = record.kind === 'timeline' ? `  (the timeline record of ${record.model})` : '';
  return `  ${record.id}  ${record.kind}  ${record.model}  ${record.source}  ${record.date}  ${record.sourceUrl}${timeline}`;
}

/** How many records of each kind a work holds, as its block's heading says it: `2 gallery records, 1 timeline record`. */
function countKinds(records: readonly StoredRecord[]): string {
  const counts = new Map<string, number>();
  for (const record of records) counts.set(record.kind, (counts.get(record.kind) ?? 0) + 1);
  return [...counts].map(([kind, count]) => `${count} ${kind} record${count === 1 ? '' : 's'}`).join(', ');
}

/**
 * What `works` prints: a block per work and doubled kind (the kind, the work key, then every record
 * of that work key, of either kind, with its model, source key and date), and a closing line.
 */
async function describeSharedWorks(backend: StoreBackend): Promise<string[]> {
  const { total, works } = await backend.store.sharedWorks(WORKS_SHOWN);
  if (total === 0) return ['no work has more than one record of one kind'];
  const blocks: string[] = [];
  for (const work of works) {
    // Every record of the work key, the other kind's too (a gallery record's timeline twin), by kind then id.
    const records = await backend.store.findByWorkKey(work.workKey);
    const gone = work.ids.filter((id) => !records.some((record) => record.id === id)).map((id) => `  ${id}  (no longer a record)`);
    blocks.push([`${work.kind} doubled: ${work.workKey} (${countKinds(records)})`, ...records.map(describeWorkRecord), ...gone].join('\n'));
  }
  const shown = works.length < total ? `, the first ${works.length} by work key shown above` : '';
  return [
    ...blocks.map((block) => `${block}\n`),
    `${total} work${total === 1 ? ' has' : 's have'} more than one record of one kind${shown} (published under two forms of one address before the work key rules made them one work, or one of them by a process of an earlier version still running beside a newer one during an upgrade). npm run withdraw -- ID --reason "why" --only withdraws one record; without --only, every record of its work. A timeline record stays when --only withdraws the gallery record at its URL: withdraw the other form, or both.`,
  ];
}

const OPTIONS = {
  key: { type: 'string' },
  host: { type: 'string', multiple: true },
  alias: { type: 'string', multiple: true },
  'media-host': { type: 'string', multiple: true },
  'handle-rule': { type: 'string' },
  'work-rule': { type: 'string' },
  'work-form': { type: 'string' },
  'keep-param': { type: 'string', multiple: true },
  'label-zh': { type: 'string' },
  'label-en': { type: 'string' },
  force: { type: 'boolean' },
} as const;

/** The option that gives each field of a definition, by which a problem is named here. */
const OPTION_OF_FIELD: Readonly<Record<string, string>> = {
  key: '--key',
  'label.zh': '--label-zh',
  'label.en': '--label-en',
  hosts: '--host',
  aliases: '--alias',
  mediaHosts: '--media-host',
  handlePattern: '--handle-rule',
  workPattern: '--work-rule',
};

const { subcommand: command, operands, values } = readCommandLine((args) =>
  readSubcommand(
    {
      name: 'sources',
      usage: USAGE,
      options: OPTIONS,
      subcommands: {
        list: { options: [], operands: [0, 0] },
        add: { options: ['key', 'host', 'alias', 'media-host', 'handle-rule', 'work-rule', 'work-form', 'keep-param', 'label-zh', 'label-en'], operands: [0, 0] },
        remove: { options: ['force'], operands: [1, 1] },
        works: { options: [], operands: [0, 0] },
      },
    },
    args,
  ),
);

async function main(backend: StoreBackend): Promise<void> {
  if (command === 'list') {
    for (const source of await backend.sources.listSources()) console.log(describe(source));
    return;
  }
  if (command === 'works') {
    for (const line of await describeSharedWorks(backend)) console.log(line);
    return;
  }
  if (command === 'add') {
    const lower = (hosts: string[] | undefined): string[] => (hosts ?? []).map((host) => host.trim().toLowerCase());
    const definition: SourceDefinition = {
      key: values.key ?? '',
      label: { zh: values['label-zh'] ?? '', en: values['label-en'] ?? '' },
      hosts: lower(values.host),
      ...(values.alias?.length ? { aliases: lower(values.alias) } : {}),
      mediaHosts: lower(values['media-host']),
      ...(values['handle-rule'] ? { handlePattern: values['handle-rule'] } : {}),
      ...(values['work-rule'] !== undefined ? { workPattern: values['work-rule'] } : {}),
      ...(values['work-form'] ? { workForm: values['work-form'] } : {}),
      // --keep-param '' (alone) keeps none: every query parameter is dropped.
      ...(values['keep-param']?.length ? { keepParameters: values['keep-param'].filter(Boolean) } : {}),
    };
    const sources = await backend.sources.listSources();
    const problems = [...sourceDefinitionProblems(definition), ...sourceHostConflicts(definition, sources)];
    if (problems.length) throw new Error(`${problems.map((problem) => `${OPTION_OF_FIELD[problem.field] ?? problem.field}: ${problem.message}`).join('\n')}\n${USAGE}`);
    const replaced = sources.some((source) => source.key === definition.key);
    await backend.sources.putSource(definition);
    console.log(`${replaced ? 'replaced' : 'added'} source ${definition.key}\n${describe(definition)}`);
    return;
  }
}

/** `remove`: the one subcommand that searches (how many published records name the source). */
async function remove(backend: Backend): Promise<void> {
  const [argument = ''] = operands;
  const used = (await backend.search.search({ lang: 'en', filters: { source: [argument] }, order: 'newest', offset: 0, limit: 1 })).total;
  if (used > 0 && !values.force) throw new Error(`${used} published record${used === 1 ? ' names' : 's name'} the source ${argument}; they keep its key. Remove it anyway with --force.`);
  if (!(await backend.sources.removeSource(argument))) throw new Error(`no source has the key ${argument}`);
  console.log(`removed source ${argument}; its hosts are unknown to the publisher from now on`);
}

// The others open the store alone, so they run while Meilisearch is down.
if (command === 'remove') runCommand(remove);
else runStoreCommand(main);
