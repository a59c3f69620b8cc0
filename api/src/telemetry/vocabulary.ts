import type { TelemetryVocabulary } from '@special-gift/shared/telemetry';
import { REMOTE_LIST } from '../../../tooling/remotes/remotes.generated';

/** What a batch may name: the app's routes and remotes, from the one list of remotes (tooling/remotes/remotes.json). */
export const TELEMETRY_VOCABULARY: TelemetryVocabulary = {
  routes: REMOTE_LIST.map((remote) => remote.route),
  remotes: REMOTE_LIST.map((remote) => remote.name),
};

/** Route → the remote whose screen it shows: a vital that names no remote is that screen's. */
export const ROUTE_OWNERS: Readonly<Record<string, string>> = Object.fromEntries(
  REMOTE_LIST.map((remote) => [remote.route, remote.name]),
);
