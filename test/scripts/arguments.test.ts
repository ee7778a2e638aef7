import { expect } from 'chai';
import { CommandLineError, readArguments, readSubcommand } from '../../scripts/arguments.ts';

const USAGE = 'usage: npm run things -- add --name NAME [--tag TAG …] | remove NAME [--force]';
const OPTIONS = { name: { type: 'string' }, tag: { type: 'string', multiple: true }, force: { type: 'boolean' } } as const;
const things = (args: string[]) =>
  readSubcommand({ name: 'things', usage: USAGE, options: OPTIONS, subcommands: { add: { options: ['name', 'tag'], operands: [0, 0] }, remove: { options: ['force'], operands: [1, 1] } } }, args);

/** The lines of the refusal `read` throws. */
function refusal(read: () => unknown): string[] {
  try {
    read();
  } catch (error) {
    expect(error).to.be.instanceOf(CommandLineError);
    return (error as Error).message.split('\n');
  }
  throw new Error('the arguments were accepted');
}

describe("reading a maintenance command's arguments", () => {
  it('returns the subcommand, its operands and its options, typed', () => {
    const added = things(['add', '--name', 'a', '--tag', 'x', '--tag=y']);
    expect(added).to.deep.include({ subcommand: 'add', operands: [] });
    expect(added.values).to.deep.equal({ name: 'a', tag: ['x', 'y'] });
    expect(things(['remove', '--force', '--', '--name'])).to.deep.include({ subcommand: 'remove', operands: ['--name'] });
    expect(things(['add', '--name=-dash']).values.name).to.equal('-dash');
  });

  it('names every problem at once, then the usage line', () => {
    expect(refusal(() => things(['add', '--name', 'a', '--name', 'b', '--bogus', '--force=yes', '--tag']))).to.deep.equal([
      '--name is given more than once',
      'unknown option --bogus',
      '--force takes no value (got "yes")',
      '--tag needs a value',
      'npm run things -- add does not take --force',
      USAGE,
    ]);
  });

  it("refuses an option another subcommand takes, and operands too few or too many", () => {
    expect(refusal(() => things(['remove', 'a', 'b', 'c', '--name', 'x']))).to.deep.equal(['npm run things -- remove does not take --name', 'npm run things -- remove takes 1 argument, got 3: "b" "c" left over', USAGE]);
    expect(refusal(() => things(['remove']))).to.deep.equal(['npm run things -- remove needs 1 argument, got 0', USAGE]);
    expect(refusal(() => things(['add', 'extra']))).to.deep.equal(['npm run things -- add takes no arguments (got "extra")', USAGE]);
  });

  it('says which subcommands there are when none or an unknown one is named', () => {
    expect(refusal(() => things([]))).to.deep.equal(['npm run things needs a command: add or remove', USAGE]);
    expect(refusal(() => things(['ad', '--name', 'a']))).to.deep.equal(['npm run things has no command "ad"; it takes add or remove', USAGE]);
  });

  it('takes an option\'s value that looks like an option only when written with =', () => {
    expect(refusal(() => things(['add', '--name', '--tag', 'x']))).to.deep.equal(['--name needs a value, not the option --tag (write --name=--tag for a value that begins with a dash)', USAGE]);
  });

  it('reads a command without subcommands by the same rules', () => {
    const shape = { options: ['force'], operands: [1, Infinity] } as const;
    const read = (args: string[]) => readArguments({ name: 'drop', usage: 'usage: npm run drop -- ID [ID …] [--force]', options: { force: { type: 'boolean' } }, shape }, args);
    expect(read(['a', 'b', '--force'])).to.deep.equal({ operands: ['a', 'b'], values: { force: true } });
    expect(refusal(() => read(['--force']))).to.deep.equal(['npm run drop needs at least 1 argument, got 0', 'usage: npm run drop -- ID [ID …] [--force]']);
  });
});
