import { createHash, createHmac } from 'node:crypto';
import {
  currentPayload,
  CURRENT_FORMAT,
  serializeState,
  stateKeys,
  stateName,
  type ReleaseCurrent,
  type ReleaseState,
  type StateKey,
} from '@special-gift/shared/release-state';

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
  const unsigned = {
    format: CURRENT_FORMAT,
    alg: 'HS256',
    keyId: key.id,
    environment: state.environment,
    serial: state.serial,
    state: stateName(state.serial, sha256),
    sha256,
    publishedAt: '2026-12-01T10:00:01.000Z',
  } as const;
  const signature = createHmac('sha256', key.secret).update(currentPayload(unsigned)).digest('base64url');
  return [
    [keys.state(state.serial, sha256), body],
    [keys.current, JSON.stringify(tamper({ ...unsigned, signature }))],
  ];
}
