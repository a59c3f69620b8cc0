import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A command line that cannot be understood: the tool prints the message and its usage. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** What a command line holds: the command word, the other words, the options by name. */
export interface CommandLine<O extends Options> {
  readonly command: string;
  readonly positionals: string[];
  readonly values: { [name in keyof O]?: O[name]['type'] extends 'boolean' ? boolean : string };
}

/**
 * The one set of rules of every `sg-release` command line (node:util's parseArgs, strict): only the
 * options named, `--name value` or `--name=value`, a value that starts with `-` only in the `=`
 * form, a repeated option's last value wins. Anything else is a UsageError, never a guess.
 */
export function parseCommandLine<O extends Options>(argv: readonly string[], options: O): CommandLine<O> {
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
  } catch (error) {
    // node's parse errors (unknown option, missing or ambiguous value) carry a code (checked rather than
    // the class: a TypeError of another realm under Jest); their first sentence says what is wrong.
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      const message = (error as Error).message;
      throw new UsageError(message.split(/\.\s+(?=[A-Z])/)[0] ?? message);
    }
    throw error;
  }
  const [command = '', ...positionals] = parsed.positionals;
  return { command, positionals, values: parsed.values as CommandLine<O>['values'] };
}
