/**
 * Reading a maintenance command's arguments, the same way for every command: each subcommand
 * names the options it takes and how many operands follow it, and anything else is refused with
 * every problem named and the usage line, before the command opens the archive. Node's parseArgs
 * alone would ignore an option another subcommand takes, keep the last of an option given twice,
 * ignore extra operands, and stop at the first problem with a message naming none of this.
 */
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** The values of the options a command declares, typed as parseArgs types them. */
export type OptionValues<O extends OptionsConfig> = ReturnType<typeof parseArgs<{ options: O; allowPositionals: true }>>['values'];

/** What one command (or one subcommand) takes. */
export interface CommandShape<O extends OptionsConfig> {
  /** The options it takes, of those the whole command declares. */
  readonly options: readonly (keyof O & string)[];
  /** How many operands it takes after its name: at least the first, at most the second (Infinity for any number). */
  readonly operands: readonly [number, number];
}

/** Arguments a command cannot run with; its message names every problem and ends with the usage line. */
export class CommandLineError extends Error {}

export interface CommandLine<O extends OptionsConfig> {
  readonly operands: string[];
  readonly values: OptionValues<O>;
}

/** The arguments of a command without subcommands (`npm run withdraw -- ID … --reason why`). */
export function readArguments<O extends OptionsConfig>(command: { name: string; usage: string; options: O; shape: CommandShape<O> }, args: readonly string[]): CommandLine<O> {
  const read = readTokens(command.options, args);
  const problems = [...read.problems, ...shapeProblems(`npm run ${command.name}`, command.shape, read, read.positionals)];
  if (problems.length) throw new CommandLineError([...problems, command.usage].join('\n'));
  return { operands: read.positionals, values: valuesOf(command.options, args) };
}

/** The arguments of a command whose first operand names a subcommand (`npm run sources -- add --key …`). */
export function readSubcommand<O extends OptionsConfig, S extends string>(
  command: { name: string; usage: string; options: O; subcommands: Readonly<Record<S, CommandShape<O>>> },
  args: readonly string[],
): CommandLine<O> & { subcommand: S } {
  const read = readTokens(command.options, args);
  const [named, ...operands] = read.positionals;
  const names = Object.keys(command.subcommands) as S[];
  const subcommand = names.find((name) => name === named);
  const problems = [...read.problems];
  if (subcommand === undefined) {
    problems.push(named === undefined ? `npm run ${command.name} needs a command: ${sayOneOf(names)}` : `npm run ${command.name} has no command "${named}"; it takes ${sayOneOf(names)}`);
  } else {
    problems.push(...shapeProblems(`npm run ${command.name} -- ${subcommand}`, command.subcommands[subcommand], read, operands));
  }
  if (problems.length || subcommand === undefined) throw new CommandLineError([...problems, command.usage].join('\n'));
  return { subcommand, operands, values: valuesOf(command.options, args) };
}

interface ReadTokens {
  /** The names of the declared options given, once each, in the order first given. */
  readonly optionNames: string[];
  readonly positionals: string[];
  readonly problems: string[];
  /** An option took what looks like another option as its value, so the operands are not known for certain. */
  readonly ambiguous: boolean;
}

/** Reads the arguments leniently, so that every problem is found rather than the first. */
function readTokens(options: OptionsConfig, args: readonly string[]): ReadTokens {
  const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  const optionNames: string[] = [];
  const positionals: string[] = [];
  const problems: string[] = [];
  let ambiguous = false;
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const declared = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    if (declared === undefined) {
      problems.push(`unknown option ${token.rawName}`);
      continue;
    }
    if (optionNames.includes(token.name)) {
      if (!declared.multiple) problems.push(`${token.rawName} is given more than once`);
    } else {
      optionNames.push(token.name);
    }
    if (declared.type === 'boolean' && token.value !== undefined) problems.push(`${token.rawName} takes no value (got "${token.value}")`);
    if (declared.type === 'string' && token.value === undefined) problems.push(`${token.rawName} needs a value`);
    if (declared.type === 'string' && token.value !== undefined && !token.inlineValue && token.value.startsWith('-')) {
      ambiguous = true;
      problems.push(`${token.rawName} needs a value, not the option ${token.value} (write ${token.rawName}=${token.value} for a value that begins with a dash)`);
    }
  }
  return { optionNames, positionals, problems, ambiguous };
}

function shapeProblems<O extends OptionsConfig>(said: string, shape: CommandShape<O>, read: ReadTokens, operands: readonly string[]): string[] {
  const problems = read.optionNames.filter((name) => !(shape.options as readonly string[]).includes(name)).map((name) => `${said} does not take --${name}`);
  if (read.ambiguous) return problems;
  const [fewest, most] = shape.operands;
  if (operands.length < fewest) problems.push(`${said} needs ${fewest === most ? '' : 'at least '}${countOf(fewest)}, got ${operands.length}`);
  if (operands.length > most) {
    const extra = operands.slice(most).map((operand) => `"${operand}"`).join(' ');
    problems.push(most === 0 ? `${said} takes no arguments (got ${extra})` : `${said} takes ${fewest === most ? '' : 'at most '}${countOf(most)}, got ${operands.length}: ${extra} left over`);
  }
  return problems;
}

/** The values, read strictly now that nothing in the arguments can make parseArgs throw. */
function valuesOf<O extends OptionsConfig>(options: O, args: readonly string[]): OptionValues<O> {
  return parseArgs({ args: [...args], options, allowPositionals: true }).values;
}

function countOf(operands: number): string {
  return `${operands} argument${operands === 1 ? '' : 's'}`;
}

function sayOneOf(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
