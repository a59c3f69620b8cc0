// The access endpoints' wire contract (docs/access.md): scoped tokens and the audit trail, as the
// API answers and the release tool reads them; api/openapi.yaml documents the same shapes.

export const ROLES = ['viewer', 'deployer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** A scoped token as listed: never its secret, which exists only in the answer that created it. */
export interface AccessToken {
  readonly id: string;
  readonly name: string;
  readonly remote: string;
  readonly environment: string;
  readonly role: Role;
  readonly createdAt: string;
  readonly createdBy: string;
  readonly expiresAt: string;
  readonly revokedAt: string | null;
}

/**
 * The answer of `POST /v1/access/tokens/:id/revoke`: the token, and the tokens it created (and
 * theirs), revoked with it in the same transaction (docs/access.md).
 */
export interface RevokedAccessToken extends AccessToken {
  /** Revoked with it (`cascade: true`): the tokens it created, and theirs. */
  readonly alsoRevoked: readonly AccessToken[];
  /** Kept (`cascade: false`): the tokens it created, now under its own creator. */
  readonly reattached: readonly AccessToken[];
}

/** The `201` of `POST /v1/access/tokens`: the record and the token itself, shown this once. */
export interface CreatedAccessToken extends AccessToken {
  readonly token: string;
}

/** Every change the trail records. */
export const AUDIT_ACTIONS = [
  'publish',
  'purge',
  'release',
  'canary',
  'promote',
  'abort',
  'rollback',
  'detach',
  'preview',
  'lock',
  'unlock',
  'token-create',
  'token-revoke',
  // Rollouts (docs/rollouts.md): a person's start and controls, and the runner's own moves.
  'rollout-start',
  'rollout-gate',
  'rollout-step',
  'rollout-approve',
  'rollout-pause',
  'rollout-resume',
  'rollout-skip',
  'rollout-abort',
  'rollout-end',
  'rollout-webhook',
  'rollout-plan',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Where a change was made (`Sg-Channel`): informative, it grants nothing. */
export const CLIENT_CHANNELS = ['console', 'cli', 'ci'] as const;
/** `system`: the rollout and gate runners' own changes; a client can never claim it. */
export const CHANNELS = [...CLIENT_CHANNELS, 'system'] as const;
export type Channel = (typeof CHANNELS)[number];

export interface AuditEntry {
  readonly id: number;
  readonly at: string;
  readonly environment: string;
  readonly remote: string;
  readonly action: AuditAction;
  /** The acting token as the API authenticated it: never a name the client sent. */
  readonly tokenId: string;
  readonly tokenName: string;
  readonly channel: Channel;
  readonly fromState: string | null;
  readonly toState: string | null;
  readonly reason: string;
}

/**
 * What a token may be asked to do, and the least role each needs (docs/access.md, the scope
 * matrix): the console offers only what `GET /v1/access/me` lists, and the API refuses the rest.
 */
export const ROLE_NEEDED = {
  read: 'viewer',
  publish: 'deployer',
  purge: 'deployer',
  release: 'deployer',
  canary: 'deployer',
  promote: 'deployer',
  abort: 'deployer',
  rollback: 'deployer',
  detach: 'deployer',
  preview: 'deployer',
  lock: 'deployer',
  unlock: 'deployer',
  rollout: 'deployer',
  approve: 'deployer',
  webhooks: 'admin',
  tokens: 'admin',
} as const satisfies Record<string, Role>;
export type AccessAction = keyof typeof ROLE_NEEDED;

/** The actions a role may do, in ROLE_NEEDED's order. */
export function actionsOf(role: Role): AccessAction[] {
  const rank = ROLES.indexOf(role);
  return (Object.keys(ROLE_NEEDED) as AccessAction[]).filter((action) => ROLES.indexOf(ROLE_NEEDED[action]) <= rank);
}

/** `GET /v1/access/me`: who the token is, so a client (the console) offers only what it may do. */
export interface AccessIdentity {
  readonly tokenId: string;
  readonly name: string;
  readonly role: Role;
  /** null: every remote (the operator credential). */
  readonly remote: string | null;
  readonly environment: string;
  /** null: the operator credential, which does not expire. */
  readonly expiresAt: string | null;
  readonly actions: readonly AccessAction[];
  /** The remotes it may read: its own, or every one of the app for the operator. */
  readonly remotes: readonly string[];
}

/**
 * The API paths of the operator pages (the team console, the field report) and their scripts: served
 * only on the API's own origin. A host's proxy refuses them under `/api` (docs/console.md): on the
 * host's origin, every remote's script could read the token the page keeps in sessionStorage.
 */
export const OPERATOR_PAGE_PREFIXES = ['/v1/console', '/v1/telemetry/report.'] as const;

/** The `404` a host's proxy answers for them, in the API's error shape (the nginx template says the same). */
export const OPERATOR_PAGE_REFUSED = {
  error: {
    code: 'not_found',
    message: "The operator pages are not served through the host: open them on the API's own origin (docs/console.md).",
  },
} as const;
