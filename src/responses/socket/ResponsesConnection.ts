import { catchError, concatMap, EMPTY, finalize, NEVER, Observable } from 'rxjs';
import type { RawData, WebSocket } from 'ws';
import { ClientGoneError } from '../../errors/ClientGoneError.js';
import { ConversationTooLargeError } from '../../errors/ConversationTooLargeError.js';
import { SlowClientError } from '../../errors/SlowClientError.js';
import { unsupportedParameter } from '../../errors/unsupportedParameter.js';
import type { Logger } from '../../logger.js';
import { assertResponseOwner } from '../../openai/assertResponseOwner.js';
import type { Principal } from '../../principal.js';
import type { Served } from '../../serving/served.js';
import type { ReleaseSlot } from '../../store/KeyLimits.js';
import { parseResponseRequest } from '../responseRequest.js';
import { hostedToolsOf } from '../hostedToolPlacement.js';
import type { ResponsesContext } from '../responsesContext.js';
import { createResponseTurn } from '../responseTurn.js';
import { saveOrLog } from '../saveOrLog.js';
import { answerInOrder } from './answerInOrder.js';
import { ConnectionMemory } from './ConnectionMemory.js';
import { parseClientEvent } from './parseClientEvent.js';
import { socketErrorEvent } from './socketErrorEvent.js';
import { SocketSink } from './SocketSink.js';
import { streamToSocket, type PreparedTurn } from './streamToSocket.js';
import type { RememberedConversation } from './ConnectionMemory.js';

/** What a Responses WebSocket connection needs beyond the Responses API's context. */
export interface SocketContext extends ResponsesContext {
  /** `RXGATE_WS_MAX_CACHED_RESPONSES`. */
  readonly maxCachedResponses: number;
  /** `RXGATE_WS_MAX_QUEUED_EVENTS`. */
  readonly maxQueuedEvents: number;
  /** `RXGATE_WS_MAX_AGE_MS`. */
  readonly maxAgeMs: number;
  /** What a `response.create` goes through before it runs, as a `POST` does: the model known, the key's `rpm`, `models` and one of its `maxStreams` slots. */
  readonly admit: (principal: Principal, model: string) => Promise<ReleaseSlot>;
}

/** A turn ready to run, and the remembered conversation it continues, if it does. */
interface ConnectionTurn extends PreparedTurn {
  readonly continued?: RememberedConversation;
}

interface ClientMessage {
  readonly data: RawData;
  readonly isBinary: boolean;
}

/** The close code and reason of a connection that lived `RXGATE_WS_MAX_AGE_MS`. */
export const MAX_AGE_CLOSE = { code: 4000, reason: 'connection max age reached' } as const;
/** A socket that failed in a way rxgate did not expect. */
const INTERNAL_ERROR_CLOSE = 1011;
/** The close code and reason of a connection that sent more than `RXGATE_WS_MAX_QUEUED_EVENTS` ahead: each waits with its whole body. */
export const QUEUE_FULL_CLOSE = { code: 1008, reason: 'too many events waiting' } as const;

/**
 * One Responses API WebSocket connection: its `response.create` events answered one at a time in
 * order (`answerInOrder`), each through `streamToSocket`; a request refused (a bad body, a key's
 * limit, a `previous_response_id` nobody knows) is an `error` event and the connection stays open.
 * A closed socket, with or without a close frame, or one that leaves a ping unanswered for the
 * keepalive interval, interrupts the response in flight in the same frame. A connection that lived
 * `maxAgeMs` closes with `MAX_AGE_CLOSE` once its response in flight has ended, as one does that
 * shutdown drains (`closeWhenIdle`); what it was sent meanwhile is not answered.
 */
export class ResponsesConnection {
  /** How the connection went, once it closed: the access log's line of its upgrade request. */
  readonly served: Promise<Served>;
  readonly #memory: ConnectionMemory;
  readonly #sink: SocketSink;
  #answering = false;
  /** How it closes once its response in flight has ended: set when it expired or is drained. */
  #closing: { readonly code: number; readonly reason: string } | undefined;
  /** Messages received and not yet being answered. */
  #waiting = 0;

  constructor(
    private readonly socket: WebSocket,
    private readonly principal: Principal,
    private readonly context: SocketContext,
    private readonly logger: Logger,
  ) {
    this.#memory = new ConnectionMemory(context.maxCachedResponses);
    // Listens to 'close' before anything else does: the writer of a response in flight names why it ends first.
    this.#sink = new SocketSink(socket);
    this.served = new Promise((resolve) =>
      socket.once('close', (code: number) =>
        resolve({ outcome: code === 1000 || code === MAX_AGE_CLOSE.code ? 'completed' : 'client_disconnected' }),
      ),
    );
  }

  start(): this {
    const { socket } = this;
    const closed$ = new Observable<void>((subscriber) => {
      const closed = () => subscriber.next();
      socket.once('close', closed);
      return () => socket.off('close', closed);
    });
    const messages$ = new Observable<ClientMessage>((subscriber) => {
      const received = (data: RawData, isBinary: boolean) => {
        if (++this.#waiting > this.context.maxQueuedEvents) return this.close(QUEUE_FULL_CLOSE.code, QUEUE_FULL_CLOSE.reason);
        subscriber.next({ data, isBinary });
      };
      socket.on('message', received);
      return () => socket.off('message', received);
    });
    messages$.pipe(answerInOrder((message) => this.answer(message), closed$)).subscribe();
    // A frame that breaks the protocol (a message over RXGATE_MAX_BODY_BYTES, say) closes the socket after this; unheard, it would throw.
    socket.on('error', (error) => this.logger.info({ err: error }, 'WebSocket connection failed'));
    const pings = this.keepAlive();
    const maxAge = setTimeout(() => this.closeWhenIdle(MAX_AGE_CLOSE.code, MAX_AGE_CLOSE.reason), this.context.maxAgeMs);
    socket.once('close', () => {
      clearInterval(pings);
      clearTimeout(maxAge);
    });
    return this;
  }

  /** Closes the connection now (shutdown), with `code` and `reason`. */
  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }

  /** Closes the connection with `code` and `reason` now if it answers nothing, else once its response in flight has ended. */
  closeWhenIdle(code: number, reason: string): void {
    this.#closing ??= { code, reason };
    if (!this.#answering) this.close(this.#closing.code, this.#closing.reason);
  }

  private answer(message: ClientMessage): Observable<never> {
    this.#waiting--;
    this.#answering = true;
    return this.prepare(message).pipe(
      catchError((error: unknown) => {
        this.send(socketErrorEvent(error));
        return EMPTY;
      }),
      concatMap((prepared) =>
        streamToSocket(prepared, this.context, this.#sink, this.logger, (turn) =>
          this.#memory.remember(turn.draft.meta.id, turn.conversation(), prepared.continued),
        ).pipe(
          // A socket that is gone, behind or broken answers nothing more: what waits is dropped with it.
          catchError((error: unknown) => {
            this.lost(error);
            return NEVER;
          }),
        ),
      ),
      finalize(() => {
        this.#answering = false;
        if (this.#closing) this.close(this.#closing.code, this.#closing.reason);
      }),
    );
  }

  /**
   * The turn a message asks for, stored `in_progress`; unsubscribed before it is ready (its socket
   * closed), it gives the key's slot back once it is, and is stored `incomplete`.
   */
  private prepare(message: ClientMessage): Observable<ConnectionTurn> {
    return new Observable<ConnectionTurn>((subscriber) => {
      this.prepared(message).then(
        (prepared) => {
          if (subscriber.closed) {
            prepared.release();
            return void saveOrLog(prepared.turn, this.logger)(prepared.turn.draft.snapshot('incomplete', 'interrupted'));
          }
          subscriber.next(prepared);
          subscriber.complete();
        },
        (error: unknown) => subscriber.error(error),
      );
    });
  }

  private async prepared({ data, isBinary }: ClientMessage): Promise<ConnectionTurn> {
    const { context, principal, logger } = this;
    const event = parseClientEvent(data, isBinary);
    const request = parseResponseRequest(event.body, hostedToolsOf(context));
    if (request.conversation) {
      throw unsupportedParameter(
        'conversation',
        'over WebSocket a response continues another by previous_response_id; send conversation to POST /v1/responses',
      );
    }
    if (request.ignoredTools.length > 0) {
      logger.info({ ignoredTools: request.ignoredTools }, 'hosted tools left out of the offer (RXGATE_HOSTED_TOOLS=ignore)');
    }
    const release = await context.admit(principal, request.model ?? context.defaultModel);
    try {
      const previous = request.previousResponseId;
      const remembered = previous === null ? undefined : this.#memory.recall(previous);
      if (previous !== null && remembered === undefined) await assertResponseOwner(context.store, previous, principal, previous);
      // A chain held in memory meets the bound a stored one meets (the store checks its own).
      if (remembered && remembered.bytes > context.maxConversationBytes) {
        throw new ConversationTooLargeError(previous!, remembered.bytes, context.maxConversationBytes);
      }
      const turn = await createResponseTurn(request, context.store, {
        principal,
        defaultModel: context.defaultModel,
        serverToolNames: context.agent.serverToolNames ?? [],
        maxConversationBytes: context.maxConversationBytes,
        history: remembered?.messages,
      });
      await turn.save(turn.draft.snapshot('in_progress'));
      return { turn, generate: event.generate, release, continued: remembered };
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Sends an event outside a response; a reader that owes more than a slow SSE client may is cut off. */
  private send(event: object): void {
    if (this.socket.bufferedAmount > this.context.maxBufferedBytes) return this.socket.terminate();
    this.socket.send(JSON.stringify(event));
  }

  /** A response that could not be written to the end: the socket is gone, behind, or broken. */
  private lost(error: unknown): void {
    if (error instanceof ClientGoneError) return;
    if (error instanceof SlowClientError) return this.socket.terminate();
    this.close(INTERNAL_ERROR_CLOSE, 'internal error');
  }

  /** Pings every keepalive interval; a socket that left the last ping unanswered is dropped, which interrupts what runs on it. */
  private keepAlive(): NodeJS.Timeout {
    let answered = true;
    this.socket.on('pong', () => (answered = true));
    return setInterval(() => {
      if (!answered) return this.socket.terminate();
      answered = false;
      this.socket.ping();
    }, this.context.keepaliveMs);
  }
}
