import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import {
  parseJSONRPCMessage,
  SdkError,
  SdkErrorCode,
  serializeMessage,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import spawn from 'cross-spawn';
import { createLineSplitter, type LineSplitter } from './createLineSplitter.js';
import { triageInbound, type InboundInterest } from './triageInbound.js';

export interface BoundedStdioTransportOptions {
  readonly command: string;
  readonly args: readonly string[];
  /** Added to the few variables every server inherits (`PATH`, `HOME`, ...). */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** The longest line (one message) the server may write; past it the server is stopped. */
  readonly maxMessageBytes: number;
  /** The notification methods the client acts on; the others are dropped before the SDK checks them. */
  readonly notifications: ReadonlySet<string>;
}

// Reading yields the event loop after this long in one turn: a server that floods cannot hold it for more.
const TURN_BUDGET_MS = 5;
const CLOSE_GRACE_MS = 2000;
// Answers to the server's requests that may wait in memory for it to read them before reading stops.
const MAX_ANSWERS_WAITING = 1000;
const MAX_ANSWER_BYTES_WAITING = 1_048_576;

/**
 * The MCP SDK's stdio client transport, with what a server writes bounded in size and in the time
 * it may take from the event loop.
 *
 * Like the SDK's, it spawns the server (no shell; its env on top of the SDK's safe defaults), speaks
 * one JSON-RPC message a line, offers the server's stderr at once, and on `close` ends stdin, then
 * sends SIGTERM, then SIGKILL, 2 s apart. Unlike it:
 * - a line longer than `maxMessageBytes` is never held: the server is stopped at once (SIGTERM,
 *   SIGKILL 2 s later) and `onerror` gets a `McpMessageTooLargeError` before `onclose`;
 * - lines are handled for at most 5 ms of each event-loop turn, the rest in the next turns, with
 *   the server's stdout paused meanwhile (the pipe fills and the server waits, instead of rxgate
 *   buffering), and paused too while a thousand answers to its own requests, or 1 MiB of them, wait
 *   for it to read them;
 * - `triageInbound` drops what the client would ignore and keeps only the latest progress of a
 *   token, and the latest `list_changed`, of what one turn handles, before the SDK's schema checks.
 */
export class BoundedStdioTransport implements Transport {
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  onmessage?: Transport['onmessage'];
  /** The server's stderr, there before `start` so that no early line is lost. */
  readonly stderr = new PassThrough();
  readonly #options: BoundedStdioTransportOptions;
  readonly #lineSplitter: LineSplitter;
  readonly #interest: InboundInterest;
  /** Requests sent and not answered nor cancelled: an answer to anything else is dropped. */
  readonly #awaited = new Set<string>();
  /** Lines read and not yet handled. */
  #lines: Buffer[] = [];
  /** The latest message of each key `triageInbound` gave in this slice, delivered before anything else. */
  readonly #latest = new Map<string, unknown>();
  #child: ChildProcess | undefined;
  #pid: number | undefined;
  #nextSlice: NodeJS.Immediate | undefined;
  #waitingForDrain = false;
  /** When this event-loop turn's time for reading ends; undefined until a turn reads. */
  #turnEnds: number | undefined;
  #ended: Promise<void> | undefined;
  /** Resolves at the stdin 'drain' that every send waiting for room waits for: one listener, not one each. */
  #drained: Promise<unknown> | undefined;
  /** Answers to the server's requests written since stdin last drained, held in memory until it reads them, and their bytes. */
  #answersWaiting = 0;
  #answerBytesWaiting = 0;

  constructor(options: BoundedStdioTransportOptions) {
    this.#options = options;
    this.#lineSplitter = createLineSplitter(options.maxMessageBytes);
    this.#interest = { notifications: options.notifications, awaits: (id) => this.#awaited.has(String(id)) };
  }

  /** The server's pid, from its start until it is gone. */
  get pid(): number | null {
    return this.#pid ?? null;
  }

  async start(): Promise<void> {
    if (this.#child) throw new Error('BoundedStdioTransport already started');
    const { command, args, env, cwd } = this.#options;
    const child = spawn(command, [...args], {
      env: { ...getDefaultEnvironment(), ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      windowsHide: process.platform === 'win32',
      cwd,
    });
    this.#child = child;
    this.#pid = child.pid;
    child.on('close', () => {
      this.#child = undefined;
      this.#pid = undefined;
      this.onclose?.();
    });
    child.stdin!.on('error', (error) => this.onerror?.(error));
    child.stdout!.on('data', (chunk: Buffer) => this.#read(chunk));
    child.stdout!.on('error', (error) => this.onerror?.(error));
    child.stderr!.pipe(this.stderr);
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin) throw new SdkError(SdkErrorCode.NotConnected, 'Not connected');
    if ('method' in message) {
      if ('id' in message) this.#awaited.add(String(message.id));
      else if (message.method === 'notifications/cancelled') this.#awaited.delete(String(message.params?.requestId));
    }
    const line = serializeMessage(message);
    if (stdin.write(line)) return;
    if (!('method' in message)) {
      this.#answersWaiting++;
      this.#answerBytesWaiting += line.length;
    }
    this.#drained ??= once(stdin, 'drain').finally(() => {
      this.#drained = undefined;
      this.#answersWaiting = 0;
      this.#answerBytesWaiting = 0;
    });
    await this.#drained;
  }

  async close(): Promise<void> {
    const child = this.#child;
    if (child) this.#ended = this.#end(child, CLOSE_GRACE_MS);
    await this.#ended;
  }

  #read(chunk: Buffer): void {
    let lines: Buffer[];
    try {
      lines = this.#lineSplitter.push(chunk);
    } catch (error) {
      this.#fail(error as Error);
      return;
    }
    for (const line of lines) this.#lines.push(line);
    if (this.#nextSlice === undefined && !this.#waitingForDrain) this.#handleSlice();
  }

  readonly #handleSlice = (): void => {
    this.#nextSlice = undefined;
    this.#waitingForDrain = false;
    const child = this.#child;
    if (!child) return;
    // One budget for the whole turn: libuv reads a pipe up to 32 times in a row, each read a slice.
    if (this.#turnEnds === undefined) {
      this.#turnEnds = performance.now() + TURN_BUDGET_MS;
      setImmediate(() => (this.#turnEnds = undefined));
    }
    const deadline = this.#turnEnds;
    let handled = 0;
    while (handled < this.#lines.length && this.#child === child && !this.#owesTooMuch() && performance.now() < deadline) {
      const end = Math.min(this.#lines.length, handled + 16);
      // 16 at a time: performance.now() costs more than triaging a small message.
      while (handled < end && this.#child === child) this.#handle(this.#lines[handled++]!);
    }
    this.#lines = this.#lines.slice(handled);
    this.#deliverLatest();
    if (this.#child !== child) return;
    if (this.#lines.length === 0) {
      child.stdout!.resume();
      return;
    }
    child.stdout!.pause();
    if (this.#owesTooMuch()) {
      this.#waitingForDrain = true;
      void this.#drained!.then(this.#handleSlice, this.#handleSlice);
    } else this.#nextSlice = setImmediate(this.#handleSlice); // after the one that ends the turn's budget
  };

  /**
   * Whether the server leaves unread so many answers to its own requests that reading more of them
   * would only pile up more: then reading waits for stdin to drain. Only answers count: rxgate's own
   * requests (a call with large arguments) never stop reading, so a server busy writing while rxgate
   * writes to it is never left waiting on rxgate.
   */
  #owesTooMuch(): boolean {
    return this.#answersWaiting >= MAX_ANSWERS_WAITING || this.#answerBytesWaiting >= MAX_ANSWER_BYTES_WAITING;
  }

  #handle(line: Buffer): void {
    let value: unknown;
    try {
      value = JSON.parse(line.toString('utf8'));
    } catch {
      // As the SDK does: a line that is not JSON is a stray print, not a message.
      return;
    }
    const triage = triageInbound(value, this.#interest);
    if (triage === 'drop') return;
    if (triage !== 'deliver') {
      this.#latest.delete(triage);
      this.#latest.set(triage, value);
      return;
    }
    // What was kept back goes first: nothing else overtakes it.
    this.#deliverLatest();
    this.#deliver(value);
  }

  #deliverLatest(): void {
    if (this.#latest.size === 0) return;
    const latest = [...this.#latest.values()];
    this.#latest.clear();
    for (const value of latest) this.#deliver(value);
  }

  #deliver(value: unknown): void {
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch (error) {
      this.onerror?.(error as Error);
      return;
    }
    if (!('method' in message)) this.#awaited.delete(String(message.id));
    this.onmessage?.(message);
  }

  #fail(error: Error): void {
    const child = this.#child;
    if (!child) return;
    this.#lines = [];
    this.#latest.clear();
    clearImmediate(this.#nextSlice);
    // Nothing more is read: the rest of the message is left in the pipe, and the server stopped.
    child.stdout!.destroy();
    this.onerror?.(error);
    this.#ended = this.#end(child, 0);
  }

  /** Ends stdin, waits `stdinGraceMs` for the server to exit, then sends SIGTERM, then SIGKILL 2 s later. */
  async #end(child: ChildProcess, stdinGraceMs: number): Promise<void> {
    if (this.#child === child) this.#child = undefined;
    this.#lines = [];
    this.#latest.clear();
    this.#awaited.clear();
    clearImmediate(this.#nextSlice);
    const closed = once(child, 'close').then(
      () => undefined,
      () => undefined,
    );
    const closedWithin = (ms: number) => Promise.race([closed, new Promise((resolve) => setTimeout(resolve, ms).unref())]);
    child.stdin?.end();
    if (stdinGraceMs > 0) await closedWithin(stdinGraceMs);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await closedWithin(CLOSE_GRACE_MS);
    }
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
