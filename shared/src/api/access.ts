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
  readonly alsoRevoked: readonly AccessToken[];
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
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Where a change was made (`Sg-Channel`): informative, it grants nothing. */
export const CHANNELS = ['console', 'cli', 'ci'] as const;
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
