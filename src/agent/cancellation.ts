import { InterruptReason } from './interruptReason.js';

/**
 * Carries *why* a run is being unsubscribed to the run's teardown, which RxJS cannot tell.
 * Whoever cancels names the reason first; the first reason named wins, and an unsubscription
 * nobody explained is a client that went away.
 */
export class Cancellation {
  #reason: InterruptReason | undefined;

  get reason(): InterruptReason {
    return this.#reason ?? InterruptReason.clientDisconnected;
  }

  cancelWith(reason: InterruptReason): void {
    this.#reason ??= reason;
  }
}
