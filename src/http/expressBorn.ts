import { IncomingMessage, ServerResponse, type ServerOptions } from 'node:http';
import type { Express } from 'express';

/** The `node:http` server options that make an app's requests and responses. */
export type RequestClasses = Required<Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'>>;

/**
 * A constructor for `base`'s objects whose prototype is `prototype` from the start. It calls
 * `base` on the new object as an ES5 subclass would (`IncomingMessage` and `ServerResponse` are
 * plain functions): V8 then gives every object the same shape from its first property on.
 */
function bornWith<T extends new (...args: never[]) => object>(base: T, prototype: object): T {
  const construct = base as unknown as (this: object, ...args: unknown[]) => void;
  function Born(this: object, ...args: unknown[]) {
    construct.apply(this, args);
  }
  Born.prototype = prototype;
  return Born as unknown as T;
}

/**
 * `IncomingMessage` and `ServerResponse` for a `node:http` server whose listener is `app`: each
 * request and response is made with the prototype Express would give it (`app.request`,
 * `app.response`). Express sets it on every request otherwise, and an object whose prototype
 * changes after it was made is one V8 must re-shape: every request then costs about a quarter
 * more instructions (bench:instructions). Express's own `setPrototypeOf` finds the prototype in
 * place and changes nothing.
 */
export function expressBorn(app: Express): RequestClasses {
  const { request, response } = app as unknown as { request: object; response: object };
  return { IncomingMessage: bornWith(IncomingMessage, request), ServerResponse: bornWith(ServerResponse, response) };
}
