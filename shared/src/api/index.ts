// The sign-up API's wire contract (`@special-gift/shared/api`), the one definition of what crosses
// the wire: the API answers with these, the sign-up form reads them, the tests send and check them.
// api/openapi.yaml documents the same; shared/src/api/openapi.test.ts keeps the two equal. Not a
// federated share: types cost nothing, and the lists are bundled only where they are used.
import type { SignUpField } from '../validation/sign-up-types';
import type { AccessIdentity } from './access';
import type { PublishedBuild } from './releases';

export {
  SIGN_UP_ERROR_CODES,
  SIGN_UP_FIELDS,
  type SignUpErrorCode,
  type SignUpField,
  type SignUpInput as SignUpRequest,
} from '../validation/sign-up-types';

/** Every `error.code` the API sends (ErrorBody in api/openapi.yaml). Clients switch on these. */
export const API_ERROR_CODES = [
  'bad_request',
  'not_found',
  'method_not_allowed',
  'request_timeout',
  'expectation_failed',
  'headers_too_large',
  'xsrf_mismatch',
  'cross_origin_request',
  'rate_limited',
  'not_ready',
  'unsupported_media_type',
  'payload_too_large',
  'invalid_json',
  'invalid_body',
  'idempotency_key_required',
  'idempotency_key_reused',
  'validation_failed',
  'card_already_registered',
  'unauthorized',
  'invalid_telemetry',
  'internal_error',
  // Releases (operator endpoints, docs/releases.md).
  'releases_disabled',
  'invalid_release_request',
  'unknown_build',
  'build_conflict',
  'release_conflict',
  'release_refused',
  // Scoped credentials and locks (docs/access.md).
  'forbidden',
  'remote_locked',
  // Page tokens (docs/telemetry.md).
  'page_tokens_off',
  'builds_not_served',
  // Rollouts (docs/rollouts.md).
  'rollout_conflict',
  'rollout_refused',
  'rollout_in_progress',
  'invalid_rollout_plan',
  'gate_job_gone',
  'unknown_remote',
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/** The one error shape every error response has. */
export interface ApiErrorBody {
  readonly error: {
    readonly code: ApiErrorCode;
    /** Human-readable English, for logs and developers; clients switch on `code`. */
    readonly message: string;
    /** Per-field codes (`SignUpErrorCode`), when the error is about specific fields. */
    readonly fields?: Readonly<Partial<Record<SignUpField, string>>>;
    /** `path: code` lines, when a telemetry batch is refused (`invalid_telemetry`); never echoes what was sent. */
    readonly problems?: readonly string[];
  };
}

/** A sign-up as the API shows it: never the full card code, only its last four digits. */
export interface PublicSignUp {
  readonly id: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  /** E.164, or null when none was given. */
  readonly phone: string | null;
  readonly cardLast4: string;
  readonly createdAt: string;
}

/** The 201 answer: the sign-up and, for its creator only, the token that reads it back. */
export interface CreatedSignUp extends PublicSignUp {
  readonly readToken: string;
}

/** The properties of each answer, at run time, for the OpenAPI check; the `satisfies` keeps them complete. */
export const PUBLIC_SIGN_UP_PROPERTIES = [
  'id',
  'firstName',
  'lastName',
  'email',
  'phone',
  'cardLast4',
  'createdAt',
] as const satisfies ReadonlyArray<keyof PublicSignUp>;
export const CREATED_SIGN_UP_PROPERTIES = [...PUBLIC_SIGN_UP_PROPERTIES, 'readToken'] as const satisfies ReadonlyArray<
  keyof CreatedSignUp
>;
export const ACCESS_IDENTITY_PROPERTIES = [
  'tokenId',
  'name',
  'role',
  'remote',
  'environment',
  'expiresAt',
  'actions',
  'remotes',
] as const satisfies ReadonlyArray<keyof AccessIdentity>;
export const PUBLISHED_BUILD_PROPERTIES = [
  'remote',
  'buildId',
  'contractMajor',
  'files',
  'bytes',
  'publishedAt',
  'publishedBy',
  'purgedAt',
  'entryBytes',
  'firstScreenBytes',
  'sharedVersions',
] as const satisfies ReadonlyArray<keyof PublishedBuild>;
type Missing<T, K extends readonly PropertyKey[]> = Exclude<keyof T, K[number]>;
// A property added to an interface but not to its list fails the type-check here.
export const EVERY_PROPERTY_LISTED: [
  Missing<PublicSignUp, typeof PUBLIC_SIGN_UP_PROPERTIES>,
  Missing<CreatedSignUp, typeof CREATED_SIGN_UP_PROPERTIES>,
  Missing<AccessIdentity, typeof ACCESS_IDENTITY_PROPERTIES>,
  Missing<PublishedBuild, typeof PUBLISHED_BUILD_PROPERTIES>,
] extends [never, never, never, never]
  ? true
  : never = true;

export {
  actionsOf,
  AUDIT_ACTIONS,
  CHANNELS,
  CLIENT_CHANNELS,
  ROLE_NEEDED,
  ROLES,
  type AccessAction,
  OPERATOR_PAGE_PREFIXES,
  OPERATOR_PAGE_REFUSED,
  type AccessIdentity,
  type AccessToken,
  type AuditAction,
  type AuditEntry,
  type Channel,
  type CreatedAccessToken,
  type RevokedAccessToken,
  type Role,
} from './access';

export {
  RELEASE_ACTIONS,
  type BuildFootprint,
  type PublishedBuild,
  type ReleaseAction,
  type ReleaseActionRequest,
  type ReleaseHistoryEntry,
  type ReleasePointer,
  type ReleaseLock,
  type ReleaseStateAnswer,
  type ReleaseStateReport,
  type ReleaseStateStatus,
} from './releases';

export {
  describePlanSource,
  FINISHED_ROLLOUT_STATES,
  GATE_OUTCOMES,
  GATE_RUNNER_ACTOR,
  REMOTE_ROLLOUT_PLAN_PROPERTIES,
  ROLLOUT_CONTROLS,
  ROLLOUT_EVENT_KINDS,
  ROLLOUT_GATES,
  ROLLOUT_PLAN_SOURCES,
  ROLLOUT_PROPERTIES,
  ROLLOUT_RUNNER_ACTOR,
  ROLLOUT_STATES,
  type GateJob,
  type GateOutcome,
  type GateResult,
  type RemoteRolloutPlan,
  type RemoteRolloutPlanRequest,
  type Rollout,
  type RolloutControl,
  type RolloutControlRequest,
  type RolloutDetail,
  type RolloutEvent,
  type RolloutEventKind,
  type RolloutGate,
  type RolloutGateName,
  type RolloutGateState,
  type RolloutPlan,
  type RolloutPlanSource,
  type RolloutStartRequest,
  type RolloutState,
  type RolloutStep,
} from './rollouts';

/** How long the API replays an `Idempotency-Key`'s answer unless `IDEMPOTENCY_KEY_TTL_HOURS` says otherwise. */
export const IDEMPOTENCY_KEY_DEFAULT_TTL_HOURS = 24;
/**
 * The longest a device keeps a sign-up queued offline (docs/offline.md). No longer than the key TTL:
 * a replay of a sign-up the API already stored must get its stored answer, not a 409 for a key it forgot.
 * The API refuses a lower IDEMPOTENCY_KEY_TTL_HOURS.
 */
export const SIGN_UP_OUTBOX_MAX_AGE_HOURS = 20;
