// The words of a release command line that name things: a remote of this app, a build id. Shared by
// the release commands and `rollout`.
import { BUILD_ID_PATTERN as BUILD_ID } from '@special-gift/shared/builds';
import { REMOTES, type RemoteApp } from '../../tooling/remotes';
import { UsageError } from './arguments';

export function remoteNamed(name: string | undefined): RemoteApp {
  if (name === undefined) throw new UsageError('name a remote');
  const remote = REMOTES.find((candidate) => candidate.name === name);
  if (!remote)
    throw new UsageError(`unknown remote "${name}": one of ${REMOTES.map((candidate) => candidate.name).join(', ')}`);
  return remote;
}

export function buildIdArg(value: string | undefined, what = 'build id'): string {
  if (value === undefined) throw new UsageError(`name the ${what}`);
  if (!BUILD_ID.test(value)) throw new UsageError(`"${value}" is not a build id (12 lower-case hex characters)`);
  return value;
}

/** Refuses words beyond the first `count`. */
export function expectArgs(args: { readonly positionals: readonly string[] }, count: number): void {
  if (args.positionals.length > count) throw new UsageError(`unexpected argument "${args.positionals[count] ?? ''}"`);
}
