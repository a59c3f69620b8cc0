import type { Request, RequestHandler, Response } from 'express';
import type { Database } from '../db/database';
import { ApiError } from '../http/api-error';
import { authFailureRateLimit } from '../http/rate-limit';
import { sameSecret } from '../http/signing';
import { CLIENT_CHANNELS, type Channel, type NewAuditEntry } from './audit-store';
import { findLiveToken, ROLES, type Role } from './token-store';

/** Who is acting: a scoped token, or the operator credential (`OPERATOR_TOKEN`), an admin of every remote. */
export interface Principal {
  readonly tokenId: string;
  readonly name: string;
  readonly role: Role;
  /** null: every remote (the operator credential). */
  readonly remote: string | null;
  /** null: the operator credential, which does not expire. */
  readonly expiresAt: string | null;
}

export const OPERATOR_TOKEN_ID = 'operator';
const OPERATOR: Principal = {
  tokenId: OPERATOR_TOKEN_ID,
  name: 'operator',
  role: 'admin',
  remote: null,
  expiresAt: null,
};

export const RELEASES_DISABLED = () =>
  new ApiError(503, 'releases_disabled', 'Releases are off on this API: it runs without an OPERATOR_TOKEN.');
/** Without a configured operator token the report is off, not open. */
export const REPORT_OFF = () =>
  new ApiError(401, 'unauthorized', 'Operator access is off: the API has no OPERATOR_TOKEN.');

export interface AccessOptions {
  readonly db: Database;
  /** The admin credential of every remote (config `OPERATOR_TOKEN`); none: `whenOff` for every request. */
  readonly operatorToken: string | undefined;
  /** The environment this API serves: a token of another one is refused. */
  readonly environment: string;
  /** Failed authentications per client a minute before every request of it gets 429; 0: no limit. */
  readonly failuresPerMinute: number;
}

export interface Access {
  /** Authenticates the bearer token (401 otherwise) and keeps who it is for {@link principalOf}. */
  authenticate(whenOff?: () => ApiError): RequestHandler[];
  readonly environment: string;
  readonly db: Database;
  readonly operatorToken: string | undefined;
}

const PRINCIPAL = Symbol('principal');
type WithPrincipal = Response & { locals: { [PRINCIPAL]?: Principal } };

/**
 * One per app: the failure limit counts across every authenticated route. Every request reads the
 * token's row, so a revocation holds at once on every replica, at the price of one indexed
 * primary-key lookup per authenticated request (these are operators' requests, not page views).
 */
export function createAccess({ db, operatorToken, environment, failuresPerMinute }: AccessOptions): Access {
  const limit = authFailureRateLimit({ perMinute: failuresPerMinute });
  return {
    environment,
    db,
    operatorToken,
    authenticate(whenOff = RELEASES_DISABLED) {
      const check: RequestHandler = async (req, res, next) => {
        if (operatorToken === undefined) return next(whenOff());
        const given = /^Bearer (\S+)$/.exec(req.get('authorization') ?? '')?.[1];
        let principal: Principal | null = null;
        if (given !== undefined && sameSecret(given, operatorToken)) principal = OPERATOR;
        else if (given !== undefined) {
          const token = await findLiveToken(db, given);
          if (token && token.environment !== environment)
            throw forbidden(`This token is for the ${token.environment} environment; this API serves ${environment}.`);
          if (token)
            principal = {
              tokenId: token.id,
              name: token.name,
              role: token.role,
              remote: token.remote,
              expiresAt: token.expiresAt,
            };
        }
        if (principal === null) {
          res.set('WWW-Authenticate', 'Bearer realm="operator"');
          throw new ApiError(
            401,
            'unauthorized',
            'Send a live token as `Authorization: Bearer <token>`: this one is missing, wrong, expired or revoked.',
          );
        }
        (res as WithPrincipal).locals[PRINCIPAL] = principal;
        next();
      };
      return [limit, check];
    },
  };
}

export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);

export function principalOf(res: Response): Principal {
  const principal = (res as WithPrincipal).locals[PRINCIPAL];
  if (!principal) throw new Error('principalOf before authenticate');
  return principal;
}

const rank = (role: Role) => ROLES.indexOf(role);

/**
 * The request's principal if it may act on `remote` with at least `role`; 403 `forbidden`
 * otherwise. `remote` null: every remote at once (the whole audit trail), the operator's alone.
 */
export function authorize(res: Response, remote: string | null, role: Role, doing: string): Principal {
  const principal = principalOf(res);
  if (principal.remote !== null && principal.remote !== remote)
    throw forbidden(
      remote === null
        ? `The token "${principal.name}" is for ${principal.remote} only: it cannot ${doing} for every remote.`
        : `The token "${principal.name}" is for ${principal.remote}: it cannot ${doing} for ${remote}.`,
    );
  if (rank(principal.role) < rank(role))
    throw forbidden(`The token "${principal.name}" is a ${principal.role}: to ${doing} needs a ${role} token.`);
  return principal;
}

/**
 * `Sg-Channel`: where the change was made (console, cli or ci); the CLI sends `ci` when `CI` is set.
 * Informative only, and never `system`, which is the runners' own.
 */
export function channelOf(req: Request): Channel {
  const value = req.get('sg-channel') ?? 'cli';
  if (!(CLIENT_CHANNELS as readonly string[]).includes(value))
    throw new ApiError(400, 'bad_request', `\`Sg-Channel\` must be one of ${CLIENT_CHANNELS.join(', ')}.`);
  return value as Channel;
}

/** Who made the change, for the audit trail: the authenticated token and the channel. */
export type Actor = Pick<NewAuditEntry, 'tokenId' | 'tokenName' | 'channel'>;

export function actorOf(req: Request, res: Response): Actor {
  const principal = principalOf(res);
  return { tokenId: principal.tokenId, tokenName: principal.name, channel: channelOf(req) };
}
