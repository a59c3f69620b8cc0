import { createHash } from 'node:crypto';
import {
  serializeState,
  signCurrent,
  stateKeys,
  type ReleaseCurrent,
  type ReleaseState,
  type StateKey,
} from '@special-gift/shared/release-state';
import { hmacBase64url } from './release-state-source';

/**
 * For the composer's tests: the store objects the API's publisher writes for a state (its bytes,
 * then `current.json` naming and signing it), as [key, text] pairs, the state first. `tamper`
 * changes `current.json` after signing.
 */
export function signedStateObjects(
  state: ReleaseState,
  key: StateKey,
  tamper: (current: ReleaseCurrent) => ReleaseCurrent = (current) => current,
): [state: [string, string], current: [string, string]] {
  const keys = stateKeys(state.environment);
  const body = serializeState(state);
  const sha256 = createHash('sha256').update(body).digest('hex');
  const current = signCurrent(state.environment, state.serial, sha256, '2026-12-01T10:00:01.000Z', key, hmacBase64url);
  return [
    [keys.state(state.serial, sha256), body],
    [keys.current, JSON.stringify(tamper(current))],
  ];
}
