import { REMOTE_NAME_PATTERN } from '@special-gift/shared/builds';
import { actionsOf, type AccessIdentity } from '@special-gift/shared/api';
import { Router } from 'express';
import { REMOTE_LIST } from '../../../tooling/remotes/remotes.generated';
import { ApiError } from '../http/api-error';
import { methodNotAllowed } from '../http/method-not-allowed';
import { parseJsonBody, requireJsonContentType } from '../http/json-body';
import { bodyFields, jsonObject, queryLimit } from '../http/request-fields';
import { appendAudit, readAudit } from './audit-store';
import { actorOf, authorize, OPERATOR_TOKEN_ID, principalOf, type Access } from './authenticate';
import {
  findToken,
  holdLiveCreator,
  insertToken,
  listTokens,
  revokeToken,
  ROLES,
  type Role,
  type TokenRecord,
} from './token-store';

const invalid = (message: string) => new ApiError(400, 'bad_request', message);
const { readString, readInteger } = bodyFields(invalid);
/** The creator was revoked while this request was on its way (authentication had passed). */
const creatorRevoked = () =>
  new ApiError(401, 'unauthorized', 'This token was revoked while the request was on its way: sign in again.');
const TOKEN_ID = /^[0-9a-f]{24}$/;
/** A token lives a year at most: rotation is routine, not an event. */
export const MAX_TOKEN_DAYS = 365;

const describeToken = (token: TokenRecord) =>
  `${token.role} token "${token.name}" (${token.id}) until ${token.expiresAt}`;

/** Who may do what: create, list and revoke tokens (admins), read the audit trail (any token of the remote). */
export function accessRoutes(access: Access): Router {
  const router = Router();
  const { db, environment } = access;
  const auth = access.authenticate();
  const json = [requireJsonContentType, parseJsonBody];

  router
    .route('/v1/access/me')
    .get(...auth, (_req, res) => {
      const { tokenId, name, role, remote, expiresAt } = principalOf(res);
      const identity: AccessIdentity = {
        tokenId,
        name,
        role,
        remote,
        environment,
        expiresAt,
        actions: actionsOf(role),
        remotes: remote === null ? REMOTE_LIST.map((entry) => entry.name) : [remote],
      };
      res.json(identity);
    })
    .all(methodNotAllowed(['GET', 'HEAD']));

  router
    .route('/v1/access/tokens')
    .post(...auth, ...json, async (req, res) => {
      const body = jsonObject(req);
      const remote = readString(body, 'remote', { pattern: REMOTE_NAME_PATTERN });
      const role = readString(body, 'role') as Role;
      if (!ROLES.includes(role)) throw invalid(`\`role\` must be one of ${ROLES.join(', ')}.`);
      const name = readString(body, 'name', { pattern: /\S/, max: 100 });
      const days = readInteger(body, 'expiresInDays', 1, MAX_TOKEN_DAYS);
      const reason = readString(body, 'reason', { max: 500, optional: true }) ?? '';
      const principal = authorize(res, remote, 'admin', 'create tokens');
      const actor = actorOf(req, res);
      const expiresAt = new Date(Date.now() + days * 86_400_000);
      const created = await db.transaction(async (tx) => {
        // Authentication read the creator outside this transaction: hold it live until commit (token-store.ts).
        if (principal.tokenId !== OPERATOR_TOKEN_ID && !(await holdLiveCreator(tx, principal.tokenId)))
          throw creatorRevoked();
        const made = await insertToken(tx, {
          name,
          remote,
          environment,
          role,
          expiresAt,
          createdBy: principal.name,
          createdById: principal.tokenId,
        });
        await appendAudit(tx, {
          ...actor,
          environment,
          remote,
          action: 'token-create',
          fromState: null,
          toState: describeToken(made.record),
          reason,
        });
        return made;
      });
      // The only time the token exists outside its holder: it is stored as a hash.
      res
        .status(201)
        .set('Cache-Control', 'no-store')
        .json({ ...created.record, token: created.token });
    })
    .get(...auth, async (req, res) => {
      const remote = req.query.remote;
      if (remote !== undefined && (typeof remote !== 'string' || !REMOTE_NAME_PATTERN.test(remote)))
        throw invalid('`remote` must be a remote name.');
      authorize(res, remote ?? null, 'admin', 'list tokens');
      res.json({ environment, tokens: await listTokens(db, environment, remote ?? null) });
    })
    .all(methodNotAllowed(['GET', 'HEAD', 'POST']));

  router
    .route('/v1/access/tokens/:id/revoke')
    .post(...auth, ...json, async (req, res) => {
      const id = req.params.id;
      const body = jsonObject(req);
      const reason = readString(body, 'reason', { max: 500, optional: true }) ?? '';
      // On by default: a revocation is most often the answer to a leak (docs/access.md).
      const cascade = body.cascade ?? true;
      if (typeof cascade !== 'boolean')
        throw invalid('`cascade` must be true (also revoke the tokens it created) or false (keep them).');
      const token = typeof id === 'string' && TOKEN_ID.test(id) ? await findToken(db, id) : null;
      if (!token || token.environment !== environment)
        throw new ApiError(404, 'not_found', 'There is no token with this id in this environment.');
      authorize(res, token.remote, 'admin', 'revoke tokens');
      const actor = actorOf(req, res);
      const done = await db.transaction(async (tx) => {
        const revocation = await revokeToken(tx, token.id, cascade);
        if (!revocation) return null;
        const kept = revocation.reattached.map((other) => `"${other.name}" (${other.id})`).join(', ');
        // One entry per token ended, the ones it created saying why; the ones kept named in its entry.
        for (const [ended, why] of [
          [revocation.revoked, reason],
          ...revocation.alsoRevoked.map(
            (other) => [other, `created by "${token.name}" (${token.id}), revoked with it`] as const,
          ),
        ] as const)
          await appendAudit(tx, {
            ...actor,
            environment,
            remote: ended.remote,
            action: 'token-revoke',
            fromState: describeToken(ended),
            toState:
              `revoked at ${ended.revokedAt ?? ''}` +
              (ended.id === token.id && kept !== '' ? `; kept, now under its creator: ${kept}` : ''),
            reason: why,
          });
        return revocation;
      });
      if (!done) throw new ApiError(404, 'not_found', `The token "${token.name}" is already revoked.`);
      res.json({ ...done.revoked, alsoRevoked: done.alsoRevoked, reattached: done.reattached });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/v1/access/audit')
    .get(...auth, async (req, res) => {
      const remote = req.query.remote;
      if (remote !== undefined && (typeof remote !== 'string' || !REMOTE_NAME_PATTERN.test(remote)))
        throw invalid('`remote` must be a remote name.');
      authorize(res, remote ?? null, 'viewer', 'read the audit trail');
      const entries = await readAudit(db, {
        environment,
        remote: remote ?? null,
        limit: queryLimit(req, 100, invalid),
      });
      res.json({ environment, remote: remote ?? null, entries });
    })
    .all(methodNotAllowed(['GET', 'HEAD']));

  return router;
}
