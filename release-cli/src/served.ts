// Whether a pointer change is served yet (docs/releases.md, "Release state"): the words and the exit
// code both the release tool and the telemetry verdict's --act use.
import type { ReleaseStateAnswer } from '@special-gift/shared/api';
import { UsageError } from './arguments';

/** A pointer change committed that new pages do not get yet: the build store has not taken its state. */
export const NOT_SERVED_EXIT = 4;

/** How long a pointer change waits for the build store to have its state: SG_RELEASE_STATE_WAIT_S (0–120), 10 s. */
export function stateWaitMs(env: Readonly<Record<string, string | undefined>>): number {
  const given = env.SG_RELEASE_STATE_WAIT_S;
  if (given === undefined || given === '') return 10_000;
  if (!/^[0-9]{1,3}$/.test(given) || Number(given) > 120)
    throw new UsageError(`SG_RELEASE_STATE_WAIT_S must be a whole number of seconds from 0 to 120 (got '${given}')`);
  return Number(given) * 1_000;
}

/** ", state 42, served to new pages within 2 s" when the API writes release states; nothing otherwise. */
export const servedWords = (state: ReleaseStateAnswer | undefined, served: boolean): string =>
  state === undefined || state.store === null
    ? ''
    : `, state ${state.serial}${served ? ', served to new pages within 2 s' : ''}`;

export const notServedWords = ({ store, serial, why }: { store: string; serial: number; why: string }): string =>
  `release: applied, NOT yet served: the build store (${store}) has not taken release state ${serial} (${why}). ` +
  'New pages keep the previous state until it is; the API writes it again every 2 s, and ' +
  'GET /v1/releases/state says when it has (publishedSerial). Nothing to undo or repeat.';
