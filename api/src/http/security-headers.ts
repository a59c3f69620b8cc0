import type { RequestHandler } from 'express';

/** Every answer is personal or per-request: never cache it; and never let a browser sniff a JSON body as HTML. */
export const securityHeaders: RequestHandler = (_req, res, next) => {
  res.set({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  next();
};
