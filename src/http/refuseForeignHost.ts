import { isIP } from 'node:net';
import type { RequestHandler } from 'express';
import { RequestError } from '../errors/RequestError.js';

/**
 * Refuses a request whose `Host` is a name this server was not told it answers to. A page on
 * `evil.example` can point its name at 127.0.0.1 (DNS rebinding) and reach a keyless server as
 * its own origin: the browser then sends `Origin: http://evil.example` with `Sec-Fetch-Site:
 * same-origin`, which `refuseCrossSite` lets through. The name in `Host` is the one the page
 * cannot change. Loopback names, IP literals (no rebinding reaches an address typed as such),
 * and the names in `allowedHosts` pass; `*` lets every name through. A request without `Host`
 * (HTTP/1.0) has no name to check and passes.
 */
export function refuseForeignHost(allowedHosts: readonly string[]): RequestHandler {
  const allowed = new Set(allowedHosts.map((name) => name.toLowerCase()));
  return (req, _res, next) => {
    const host = req.headers.host;
    if (host === undefined || allowed.has('*')) return next();
    const name = hostNameOf(host);
    if (isLoopbackName(name) || isIP(name) !== 0 || allowed.has(name)) return next();
    next(
      new RequestError(
        403,
        `this server does not answer to the host name '${name}'; list it in RXGATE_ALLOWED_HOSTS to allow it`,
        'invalid_request_error',
        null,
        'host_not_allowed',
      ),
    );
  };
}

/** `Host` without its port, lower-cased; an IPv6 literal without its brackets. */
function hostNameOf(host: string): string {
  const lower = host.trim().toLowerCase();
  if (lower.startsWith('[')) {
    const end = lower.indexOf(']');
    return lower.slice(1, end === -1 ? undefined : end);
  }
  const colon = lower.lastIndexOf(':');
  return (colon === -1 ? lower : lower.slice(0, colon)).replace(/\.$/, '');
}

function isLoopbackName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost');
}
