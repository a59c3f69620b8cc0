// The access domain's face to the others (lint keeps them out of its files): who is acting, what
// they may do, and the audit trail every change appends to.
export { appendAudit, type AuditAction } from './audit-store';
export {
  actorOf,
  authorize,
  createAccess,
  forbidden,
  OPERATOR_TOKEN_ID,
  principalOf,
  RELEASES_DISABLED,
  REPORT_OFF,
  type Access,
  type Actor,
  type Principal,
} from './authenticate';
export { accessRoutes } from './routes';
export { isTokenLive } from './token-store';
