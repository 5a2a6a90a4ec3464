import type { Request, Response } from 'express';
import { WebSocketServer } from 'ws';
import { RequestError } from '../../errors/RequestError.js';
import { upgradeOf } from '../../serving/upgrades.js';
import { localsOf } from '../../serving/requestLocals.js';
import type { Served } from '../../serving/served.js';
import { ResponsesConnection, type SocketContext } from './ResponsesConnection.js';

/** The close code of the connections shutdown ends: "going away", on which a client reconnects elsewhere. */
const GOING_AWAY = 1001;
const SHUTTING_DOWN = 'server shutting down';
const WEBSOCKET_KEY = /^[+/0-9A-Za-z]{22}==$/;

export interface ResponsesSocketsOptions {
  /** `RXGATE_WS_MAX_CONNECTIONS`: connections one key may hold open at once. */
  readonly maxConnections: number;
  /** `RXGATE_MAX_BODY_BYTES`: the largest message a client may send. */
  readonly maxMessageBytes: number;
}

/** The Responses API's WebSocket connections: each key's count, and every open one for shutdown. */
export class ResponsesSockets {
  readonly #server: WebSocketServer;
  readonly #open = new Set<ResponsesConnection>();
  readonly #perKey = new Map<string, number>();
  #draining = false;

  constructor(
    private readonly context: SocketContext,
    private readonly options: ResponsesSocketsOptions,
  ) {
    this.#server = new WebSocketServer({ noServer: true, maxPayload: options.maxMessageBytes, clientTracking: false });
  }

  /**
   * Takes the upgrade of `GET /v1/responses` (after authentication and the key's policy) and
   * resolves, once the connection closed, to how it went. Refused with a 400 for a handshake that
   * is not a WebSocket one, with a 429 while the key holds `maxConnections`.
   */
  accept(req: Request, res: Response): Promise<Served> {
    const upgrade = upgradeOf(req)!;
    const version = req.get('sec-websocket-version');
    if (req.get('upgrade')?.toLowerCase() !== 'websocket' || !WEBSOCKET_KEY.test(req.get('sec-websocket-key') ?? '') || version !== '13') {
      throw new RequestError(
        400,
        'not a WebSocket handshake: send Upgrade: websocket, a Sec-WebSocket-Key and Sec-WebSocket-Version: 13',
        'invalid_request_error',
        null,
        'invalid_upgrade',
      );
    }
    const { principal, logger } = localsOf(res);
    const open = this.#perKey.get(principal.id) ?? 0;
    if (open >= this.options.maxConnections) {
      throw new RequestError(
        429,
        `key '${principal.id}' holds ${open} WebSocket connections, its most (RXGATE_WS_MAX_CONNECTIONS); close one first`,
        'rate_limit_error',
        null,
        'rate_limit_exceeded',
      );
    }
    this.#perKey.set(principal.id, open + 1);
    const closed = () => {
      const left = (this.#perKey.get(principal.id) ?? 1) - 1;
      if (left === 0) this.#perKey.delete(principal.id);
      else this.#perKey.set(principal.id, left);
    };
    return new Promise((resolve) => {
      // A socket that closes before the handshake is done never becomes a connection.
      const gone = () => {
        closed();
        resolve({ outcome: 'client_disconnected' });
      };
      upgrade.socket.once('close', gone);
      this.#server.handleUpgrade(req, upgrade.socket, upgrade.head, (socket) => {
        upgrade.socket.off('close', gone);
        res.statusCode = 101;
        const connection = new ResponsesConnection(socket, principal, this.context, logger).start();
        this.#open.add(connection);
        if (this.#draining) connection.closeWhenIdle(GOING_AWAY, SHUTTING_DOWN);
        void connection.served.then((served) => {
          this.#open.delete(connection);
          closed();
          resolve(served);
        });
      });
    });
  }

  /**
   * Shutdown begins: every connection closes "going away" once its response in flight has ended
   * (an idle one at once, one opened from now on as soon as it is), so that no response starts in
   * the grace period; a client reconnects elsewhere.
   */
  drain(): void {
    this.#draining = true;
    for (const connection of this.#open) connection.closeWhenIdle(GOING_AWAY, SHUTTING_DOWN);
  }

  /** Closes every connection ("going away"): shutdown, once the responses in flight were ended. */
  close(): void {
    for (const connection of this.#open) connection.close(GOING_AWAY, SHUTTING_DOWN);
  }
}
