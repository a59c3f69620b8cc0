import type { RequestHandler } from 'express';
import type { Logger } from './logger';

/** Logs one line per request once the response is done: method, path (no query: it may hold personal data), status, ms. */
export function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const path = req.originalUrl.split('?')[0];
    // 'close' fires for finished and for aborted responses alike, so every request gets its line.
    res.once('close', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log({
        msg: 'request',
        method: req.method,
        path,
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
        ...(res.writableFinished ? {} : { aborted: true }),
      });
    });
    next();
  };
}
