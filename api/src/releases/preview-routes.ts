import { BUILD_ID_PATTERN, REMOTE_NAME_PATTERN } from '@special-gift/shared/builds';
import type { Router } from 'express';
import { actorOf, appendAudit, authorize, type Access } from '../access';
import { ApiError } from '../http/api-error';
import { parseJsonBody, requireJsonContentType } from '../http/json-body';
import { methodNotAllowed } from '../http/method-not-allowed';
import { jsonObject } from '../http/request-fields';
import { findServableBuild } from './build-registry';
import { PREVIEW_COOKIE, PREVIEW_MAX_AGE_SECONDS, signPreview } from './preview-cookie';
import { PREVIEW_PAGE_HTML, PREVIEW_PAGE_SCRIPT } from './preview-page';
import { readString } from './request';

/**
 * The preview: the operator's own browser gets one remote's build, whatever the pointers say. A
 * third-party page cannot turn it on in someone's browser: the POST needs a deployer's token as an
 * Authorization header, which a cross-origin page cannot send without a CORS grant (this API gives
 * none), and the origin check refuses a cross-site POST before it gets here. The cookie is
 * HttpOnly and SameSite=Strict, signed with the key of the remote in this environment, and names
 * the token that made it.
 */
export function previewRoutes(
  router: Router,
  { access, cookieSecure, now }: { access: Access; cookieSecure: boolean; now: () => number },
): void {
  const { db, environment } = access;
  router
    .route('/v1/releases/preview')
    .get((_req, res) => {
      res.set({
        'Content-Security-Policy':
          "default-src 'none'; script-src 'self'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
        'Content-Type': 'text/html; charset=utf-8',
      });
      res.send(PREVIEW_PAGE_HTML);
    })
    .post(...access.authenticate(), requireJsonContentType, parseJsonBody, async (req, res) => {
      const body = jsonObject(req);
      const remote = readString(body, 'remote', { pattern: REMOTE_NAME_PATTERN });
      const buildId = readString(body, 'buildId', { pattern: BUILD_ID_PATTERN });
      const principal = authorize(res, remote, 'deployer', 'preview builds');
      const actor = actorOf(req, res);
      if (!(await findServableBuild(db, remote, buildId)))
        throw new ApiError(404, 'unknown_build', `Build ${buildId} of ${remote} is not published, or was purged.`);
      const expiresAt = now() + PREVIEW_MAX_AGE_SECONDS;
      await appendAudit(db, {
        ...actor,
        environment,
        remote,
        action: 'preview',
        fromState: null,
        toState: `${buildId} in one browser until ${new Date(expiresAt * 1000).toISOString()}`,
        reason: '',
      });
      // `authenticate` has passed, so the operator token is configured.
      const value = signPreview(access.operatorToken ?? '', environment, {
        remote,
        buildId,
        expiresAt,
        tokenId: principal.tokenId,
      });
      res.cookie(PREVIEW_COOKIE, value, {
        httpOnly: true,
        sameSite: 'strict',
        secure: cookieSecure,
        path: '/',
        maxAge: PREVIEW_MAX_AGE_SECONDS * 1000,
        encode: (cookie) => cookie,
      });
      res.json({ remote, buildId, expiresAt: new Date(expiresAt * 1000).toISOString() });
    })
    // Ending a preview needs no token: it only ever returns the browser to what everyone gets.
    .delete((_req, res) => {
      res.clearCookie(PREVIEW_COOKIE, { httpOnly: true, sameSite: 'strict', secure: cookieSecure, path: '/' });
      res.status(204).end();
    })
    .all(methodNotAllowed(['GET', 'HEAD', 'POST', 'DELETE']));

  router
    .route('/v1/releases/preview.js')
    .get((_req, res) => {
      res.type('text/javascript; charset=utf-8').send(PREVIEW_PAGE_SCRIPT);
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
}
