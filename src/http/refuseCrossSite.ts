import type { RequestHandler } from 'express';
import { RequestError } from '../errors/RequestError.js';

/**
 * Refuses a request a browser makes on behalf of a page whose origin is not allowed
 * (`RXGATE_CORS_ORIGINS`): any web page can POST a `text/plain` body without a CORS preflight,
 * and would otherwise run the agent on the upstream's key. A browser names the page in `Origin`
 * (always on a POST) or at least says `Sec-Fetch-Site: cross-site`; curl and the SDKs send
 * neither, and pass. `*` allows every origin.
 */
export function refuseCrossSite(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return (req, _res, next) => {
    if (allowed.has('*')) return next();
    const site = req.get('sec-fetch-site');
    // Browsers set Sec-Fetch-Site and no page can: `none` is the user typing the URL.
    if (site === 'same-origin' || site === 'none') return next();
    const origin = req.get('origin');
    const refused = origin === undefined ? site === 'cross-site' || site === 'same-site' : !allowed.has(origin);
    if (!refused) return next();
    const from = origin === undefined ? `another site (Sec-Fetch-Site: ${site})` : `the browser origin '${origin}'`;
    next(
      new RequestError(
        403,
        `requests from ${from} are not allowed; list the origin in RXGATE_CORS_ORIGINS to allow it`,
        'invalid_request_error',
        null,
        'origin_not_allowed',
      ),
    );
  };
}
