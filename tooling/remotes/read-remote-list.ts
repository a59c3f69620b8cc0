import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** An entry of tooling/remotes/remotes.json. */
export interface RemoteEntry {
  readonly name: string;
  readonly dir: string;
  /** Its port under `npm run serve` (the host is on 3000, the API on 3004). */
  readonly localPort: number;
  readonly route: string;
}

const NAME = /^[a-z][a-z0-9]*$/;
const ROUTE = /^\/[a-z0-9-/]*$/;

/** Reads and checks tooling/remotes/remotes.json (or `path`): the source the generated lists come from. */
export function readRemoteList(path = join(__dirname, 'remotes.json')): RemoteEntry[] {
  const list: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!Array.isArray(list) || list.length === 0) throw new Error(`${path}: a non-empty array of remotes`);
  const problems: string[] = [];
  const seen = {
    name: new Set<string>(),
    dir: new Set<string>(),
    localPort: new Set<number>(),
    route: new Set<string>(),
  };
  list.forEach((entry: Partial<Record<keyof RemoteEntry, unknown>>, index) => {
    const at = `remote ${index + 1}`;
    if (typeof entry.name !== 'string' || !NAME.test(entry.name))
      problems.push(`${at}: "name" is lower-case letters and digits (a federation name and a texts namespace)`);
    if (typeof entry.dir !== 'string' || !/^remote-[a-z0-9-]+$/.test(entry.dir))
      problems.push(`${at}: "dir" is the remote's folder, remote-<something>`);
    if (typeof entry.localPort !== 'number' || !Number.isInteger(entry.localPort) || entry.localPort < 1024)
      problems.push(`${at}: "localPort" is a port number from 1024`);
    if (typeof entry.route !== 'string' || !ROUTE.test(entry.route))
      problems.push(`${at}: "route" is a path like /sign-up`);
    for (const key of ['name', 'dir', 'localPort', 'route'] as const) {
      const value = entry[key] as never;
      if (seen[key].has(value)) problems.push(`${at}: another remote has the same "${key}"`);
      seen[key].add(value);
    }
  });
  if (problems.length > 0) throw new Error(`${path}:\n  ${problems.join('\n  ')}`);
  return list as RemoteEntry[];
}
