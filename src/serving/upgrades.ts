import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';

interface Upgrade {
  readonly socket: Duplex;
  readonly head: Buffer;
}

const upgrades = new WeakMap<IncomingMessage, Upgrade>();

/** The socket and first bytes of a request that asks to upgrade (`Upgrade: websocket`), while the app routes it. */
export function upgradeOf(req: IncomingMessage): Upgrade | undefined {
  return upgrades.get(req);
}

/** The answer to every upgrade while `RXGATE_WS=off`: Codex falls back to HTTP at once on a 426, where a 404 costs it six reconnects. */
const WS_OFF = JSON.stringify({
  error: {
    message: 'rxgate: WebSocket mode is off (RXGATE_WS=off); send the request to POST /v1/responses',
    type: 'invalid_request_error',
    param: null,
    code: 'websocket_disabled',
  },
});

/**
 * The `node:http` server's `'upgrade'` listener: the request goes through `app` as any other does
 * (the same authentication, cross-site and host checks, key policy, access log), on a response
 * over its socket, so that a refusal is the HTTP error a plain request would get. The route that
 * takes it (`GET /v1/responses`) finds its socket with `upgradeOf`; an answer that is not an
 * upgrade closes the connection. With `enabled` false, every upgrade is answered 426 at once.
 */
export function answerUpgrades(app: Express, enabled: boolean): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    if (!enabled) {
      socket.end(
        `HTTP/1.1 426 Upgrade Required\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(WS_OFF)}\r\n\r\n${WS_OFF}`,
      );
      return;
    }
    upgrades.set(req, { socket, head });
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    // Node hands an 'upgrade' listener the connection's `net.Socket`, declared as a Duplex.
    res.assignSocket(socket as Socket);
    res.once('finish', () => socket.end());
    app(req, res);
  };
}
