import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { ReleaseStateSource, StoreReader } from '../composition/release-state-source';

/**
 * The last accepted state kept in a file (RELEASE_STATE_CACHE_FILE), for an agent that restarts
 * while the store is down: the store's own objects (current.json and the state it names), as read.
 * Nothing here is trusted: while the agent has no state yet and the store fails, the reader answers
 * from the file, and the release-state source checks those bytes like the store's (signature,
 * SHA-256, environment), so a changed file is refused whole.
 */
interface KeptObjects {
  readonly objects: Record<string, string>;
}

export function keptStateReader(read: StoreReader, file: string) {
  /** What the store answered, by key, since the last keep. */
  const seen = new Map<string, string>();
  let kept: Record<string, string> = {};
  try {
    kept = (JSON.parse(readFileSync(file, 'utf8')) as KeptObjects).objects ?? {};
  } catch {
    // No file yet, or not one of ours: nothing kept.
  }
  let source: ReleaseStateSource | undefined;
  let storeProblem: string | undefined;

  const reader: StoreReader = async (key) => {
    try {
      const text = await read(key);
      if (text !== undefined) seen.set(key, text);
      storeProblem = undefined;
      return text;
    } catch (error) {
      const fallback = Object.hasOwn(kept, key) ? kept[key] : undefined;
      // Only to start from: once a state is in use, an outage keeps it and says so.
      if (fallback === undefined || source?.status().serial !== undefined) throw error;
      storeProblem = `${error instanceof Error ? error.message : String(error)} (serving the state kept in ${file})`;
      return fallback;
    }
  };

  return {
    read: reader,
    /** The source whose accepted state is kept. */
    attach(attached: ReleaseStateSource) {
      source = attached;
    },
    /** Why the store failed while the kept state was served, if it was. */
    problem: () => storeProblem,
    /** After a read: writes the accepted state's objects, if the store gave a newer one. */
    keep(currentKey: string) {
      const current = seen.get(currentKey);
      if (current === undefined || current === kept[currentKey]) return;
      const { state } = JSON.parse(current) as { state?: string };
      const stateKey = [...seen.keys()].find((key) => state !== undefined && key.endsWith(`/${state}`));
      if (!stateKey) return;
      const body = seen.get(stateKey);
      if (body === undefined) return;
      kept = { [currentKey]: current, [stateKey]: body };
      seen.clear();
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify({ objects: kept } satisfies KeptObjects));
      renameSync(temporary, file);
    },
  };
}
