import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { expressBorn } from '../../../src/http/express/expressBorn.js';

let server: Server | undefined;
afterEach(async () => {
  server?.close();
  server = undefined;
});

async function listen(handle: Server): Promise<string> {
  server = handle.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An app that answers what its requests and responses are made of. */
function innerApp(): Express {
  const inner = express();
  inner.set('etag', false);
  inner.get('/who', (req, res) => {
    res.json({
      ownApp: req.app === inner,
      sameRequest: Object.getPrototypeOf(req) === inner.request,
      sameResponse: Object.getPrototypeOf(res) === inner.response,
    });
  });
  return inner;
}

describe('expressBorn', () => {
  it("makes a server's requests and responses with the app's prototypes from the start", async () => {
    const inner = innerApp();
    const handle = createServer({ ...expressBorn(inner) }, inner);
    // Before Express's own handler, which would set the prototypes itself.
    const born: boolean[] = [];
    handle.prependListener('request', (req, res) => {
      born.push(Object.getPrototypeOf(req) === inner.request, Object.getPrototypeOf(res) === inner.response);
    });
    const url = await listen(handle);
    const response = await fetch(`${url}/who`);
    expect(await response.json()).toEqual({ ownApp: true, sameRequest: true, sameResponse: true });
    expect(born).toEqual([true, true]);
  });

  it('keeps req.app and its settings when the app is mounted in another one', async () => {
    const inner = innerApp();
    expressBorn(inner);
    const outer = express();
    outer.use('/inner', inner);
    const url = await listen(createServer(outer));
    const response = await fetch(`${url}/inner/who`);
    expect(await response.json()).toEqual({ ownApp: true, sameRequest: true, sameResponse: true });
    // The inner app's `etag: false`, not the outer app's default.
    expect(response.headers.get('etag')).toBeNull();
  });
});
