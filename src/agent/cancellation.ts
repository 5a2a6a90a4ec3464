import { InterruptReason } from './interruptReason.js';

/**
 * Carries *why* a run is being unsubscribed to the run's teardown, which RxJS cannot tell, and
 * tells whoever listens when the run was actually interrupted. Whoever cancels names the reason
 * first; the first reason named wins, and an unsubscription nobody explained is a client that
 * went away.
 */
export class Cancellation {
  #reason: InterruptReason | undefined;
  // Copied on each add with `concat`: a pushed or spread array keeps room for 17, and every open stream holds one with a listener or two.
  #listeners: readonly ((reason: InterruptReason) => void)[] = [];

  get reason(): InterruptReason {
    return this.#reason ?? InterruptReason.clientDisconnected;
  }

  cancelWith(reason: InterruptReason): void {
    this.#reason ??= reason;
  }

  /** Runs `listener` when the run is interrupted (metrics time the disconnect-to-interrupt latency with it). */
  onInterrupted(listener: (reason: InterruptReason) => void): void {
    this.#listeners = this.#listeners.concat([listener]);
  }

  /** Called by `createRun` at the moment it interrupts the run. */
  notifyInterrupted(): void {
    for (const listener of this.#listeners) listener(this.reason);
  }
}
