import { IncomingMessage, ServerResponse, type ServerOptions } from 'node:http';
import type { Express } from 'express';

/** The `node:http` server options that make an app's requests and responses. */
export type RequestClasses = Required<Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'>>;

type AppPrototypes = { request: object; response: object };

/**
 * A subclass of `base` whose prototype inherits from `prototype`. A class, not a function that
 * calls `base` on `this`: V8 sizes a class's objects for the properties its constructors set,
 * and gave a function's objects so few slots that each response fell into dictionary mode
 * (3 KB of property table per open stream).
 */
function bornWith<T extends new (...args: never[]) => object>(base: T, prototype: object): T {
  const Born = class extends (base as unknown as new (...args: unknown[]) => object) {};
  Object.setPrototypeOf(Born.prototype, prototype);
  // Its own properties too (Express's `app`): mounted in another app, Express re-parents the
  // prototype onto that app's, and `req.app` must still be this one.
  Object.defineProperties(Born.prototype, Object.getOwnPropertyDescriptors(prototype));
  return Born as unknown as T;
}

/**
 * `IncomingMessage` and `ServerResponse` for a `node:http` server whose listener is `app`: each
 * request and response is made with the prototype Express would give it. Express sets
 * `app.request` and `app.response` as the prototypes of every request, and an object whose
 * prototype changes after it was made is one V8 must re-shape: every request then costs about a
 * quarter more instructions (bench:instructions). So the classes' prototypes, which inherit
 * everything from Express's, become `app.request` and `app.response`, and Express's own
 * `setPrototypeOf` finds the prototype in place and changes nothing.
 */
export function expressBorn(app: Express): RequestClasses {
  const prototypes = app as unknown as AppPrototypes;
  const IncomingMessageBorn = bornWith(IncomingMessage, prototypes.request);
  const ServerResponseBorn = bornWith(ServerResponse, prototypes.response);
  prototypes.request = IncomingMessageBorn.prototype;
  prototypes.response = ServerResponseBorn.prototype;
  return { IncomingMessage: IncomingMessageBorn, ServerResponse: ServerResponseBorn };
}
