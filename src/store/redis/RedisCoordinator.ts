import { randomUUID } from 'node:crypto';
import { concatMap, defer, filter, firstValueFrom, ignoreElements, merge, Subject, take, timer } from 'rxjs';
import { CapacityError } from '../../errors/CapacityError.js';
import type { Logger } from '../../logger.js';
import type { Coordinator, ReceivedInput, RunInput, SteerReceipt } from '../Coordinator.js';
import { isCluster, type RedisClient } from './connectRedis.js';
import { redisCall } from './redisCall.js';
import type { RedisStore } from './RedisStore.js';

// Slots whose lease ran out (their instance stopped renewing them) are freed before counting.
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local taken = redis.call('ZCARD', KEYS[1])
if taken >= tonumber(ARGV[3]) then return {0, taken} end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
return {1, taken + 1}`;

/** How long a stop request (or an input) is kept for an owner that has not ended the run, or taken it, yet. */
const STOP_REQUEST_MS = 10 * 60_000;

/** An input as its list keeps it: a steer whose sender waits for the owner's receipt names it. */
type SentInput = RunInput & { readonly receipt?: string };

export interface RedisCoordinatorOptions {
  /** How long this instance's lease lasts unless renewed; renewed every third of it. */
  readonly leaseMs: number;
  /** Runs in flight across every instance sharing the store. */
  readonly maxConcurrent: number;
  readonly logger: Logger;
}

/**
 * The coordinator of instances sharing a `RedisStore`. This instance holds a lease (a key with a
 * TTL, renewed on each heartbeat); each run it owns holds a slot of the cluster-wide cap (a sorted
 * set scored by expiry, renewed alike), so a dead instance's slots free themselves. A stop request
 * is a key (`{id}:stop`, the durable state) and then a message on the stops channel (the signal);
 * the owner also checks the keys of its runs on every heartbeat, so a missed message delays a stop
 * by one heartbeat at most, never forever. A heartbeat that finds this instance's lease gone (the
 * process stalled, or Redis was away, for longer than the lease) looks for its runs that another
 * instance claimed meanwhile, and stops them: that instance has ended them `failed`, and this
 * one's saves of them are dropped. People's inputs to a run (approval answers, steers) go the
 * same way as stops: pushed on a list (`{id}:inputs`), announced, and popped by the owner, on the
 * announcement or on its next heartbeat. A steer's sender waits for a receipt: the owner sets it
 * (`{id}:receipt:<uuid>`, `queued` or `refused`) and announces it; the sender reads it when it hears
 * of it, or at the end of its wait. The inputs a run has not taken when its slot is given back are
 * popped then, and their steers refused.
 */
export class RedisCoordinator implements Coordinator {
  readonly #owned = new Set<string>();
  readonly #stops = new Subject<string>();
  readonly #sweeps = new Subject<void>();
  readonly #takenOver = new Subject<string>();
  readonly #inputs = new Subject<ReceivedInput>();
  /** The keys of receipts set (by any instance), as they are announced. */
  readonly #receipts = new Subject<string>();
  /** The drain of each run's inputs in flight: one at a time per run, so that its inputs come out in order. */
  readonly #draining = new Map<string, Promise<void>>();
  readonly inputs$ = this.#inputs.asObservable();
  readonly stops$ = this.#stops.asObservable();
  readonly sweeps$ = this.#sweeps.asObservable();
  readonly takenOver$ = this.#takenOver.asObservable();
  readonly stopWithinMs: number;
  readonly #subscriber: RedisClient;
  #heartbeat: NodeJS.Timeout | undefined;
  #beats = 0;

  private constructor(
    private readonly store: RedisStore,
    private readonly options: RedisCoordinatorOptions,
  ) {
    this.stopWithinMs = options.leaseMs * 2;
    // A cluster's duplicate needs no connection of its own to every master: it subscribes on one node, which hears every PUBLISH.
    this.#subscriber = isCluster(store.redis) ? store.redis.duplicate({ minimizeConnections: true }) : store.redis.duplicate();
    this.#subscriber.on('error', () => undefined);
  }

  /** Takes this instance's lease, listens for stop requests, and starts the heartbeat. */
  static async start(store: RedisStore, options: RedisCoordinatorOptions): Promise<RedisCoordinator> {
    const coordinator = new RedisCoordinator(store, options);
    store.claimant.runsItsOwn = true;
    await coordinator.#subscriber.connect();
    await coordinator.#subscriber.subscribe(store.keys.stops(), (id) => {
      if (coordinator.#owned.has(id)) coordinator.#stops.next(id);
    });
    await coordinator.#subscriber.subscribe(store.keys.inputsChannel(), (id) => {
      if (coordinator.#owned.has(id)) void coordinator.#drain(id);
    });
    await coordinator.#subscriber.subscribe(store.keys.receiptsChannel(), (key) => coordinator.#receipts.next(key));
    await coordinator.#beat();
    coordinator.#heartbeat = setInterval(() => void coordinator.#beat(), Math.max(1, Math.floor(options.leaseMs / 3))).unref();
    return coordinator;
  }

  get #redis(): RedisClient {
    return this.store.redis;
  }

  async #beat(): Promise<void> {
    const { keys, instanceId } = this.store;
    const { leaseMs, logger } = this.options;
    try {
      const held = await this.#redis.set(keys.instance(instanceId), String(Date.now()), {
        expiration: { type: 'PX', value: leaseMs },
        GET: true,
      });
      if (held === null && this.#beats > 0) await this.#findTakenOver();
      this.#beats++;
      // Taken and sent in one go: a run released after this line is removed after this write, on the same connection.
      const owned = [...this.#owned];
      if (owned.length > 0) {
        const expiry = Date.now() + leaseMs;
        // Not only renewed: a Redis that restarted empty learns again of the runs in flight here, so the cap counts them.
        await this.#redis.zAdd(
          keys.leases(),
          owned.map((id) => ({ score: expiry, value: id })),
        );
        const requested = await Promise.all(owned.map((id) => this.#redis.exists(keys.stop(id))));
        owned.forEach((id, index) => {
          if (requested[index] === 1 && this.#owned.has(id)) this.#stops.next(id);
        });
        // An input whose announcement was missed waits one heartbeat at most.
        for (const id of owned) void this.#drain(id);
      }
      this.#sweeps.next();
    } catch (error) {
      logger.warn({ err: error }, 'heartbeat failed: Redis did not answer');
    }
  }

  /** After this instance's lease lapsed, the runs it owns that a sweeper claimed meanwhile. */
  async #findTakenOver(): Promise<void> {
    const { keys, instanceId } = this.store;
    const owned = [...this.#owned];
    const owners = await Promise.all(
      owned.map(async (id) => (await this.#redis.hGet(keys.run(id), 'owner')) ?? (await this.#redis.hGet(keys.response(id), 'owner'))),
    );
    const lost = owned.filter((id, index) => owners[index] && owners[index] !== instanceId);
    if (lost.length > 0) this.options.logger.warn({ runs: lost }, "this instance's lease lapsed and another instance took over runs of it");
    for (const id of lost) if (this.#owned.has(id)) this.#takenOver.next(id);
  }

  /**
   * Pops the inputs of run `id`, oldest first, and emits each; after any drain of it still in flight.
   * Once the run is no longer owned here (its slot given back), each is refused instead.
   */
  #drain(id: string): Promise<void> {
    const { keys } = this.store;
    const popAll = async () => {
      for (let raw = await this.#redis.lPop(keys.inputs(id)); raw !== null; raw = await this.#redis.lPop(keys.inputs(id))) {
        const { receipt, ...input } = JSON.parse(raw) as SentInput;
        const acknowledge = (taken: boolean) => {
          if (receipt !== undefined) void this.#acknowledge(id, receipt, taken);
        };
        if (this.#owned.has(id)) this.#inputs.next({ id, input, acknowledge });
        else acknowledge(false);
      }
    };
    const drained = (this.#draining.get(id) ?? Promise.resolve())
      .then(popAll)
      .catch((error: unknown) => this.options.logger.warn({ err: error, id }, 'could not read the inputs of a run: Redis did not answer'))
      .finally(() => {
        if (this.#draining.get(id) === drained) this.#draining.delete(id);
      });
    this.#draining.set(id, drained);
    return drained;
  }

  /** Sets receipt `receipt` of run `id` (kept as long as its sender may wait for it) and announces it. */
  async #acknowledge(id: string, receipt: string, taken: boolean): Promise<void> {
    const { keys } = this.store;
    const key = keys.receipt(id, receipt);
    try {
      await this.#redis.set(key, taken ? 'queued' : 'refused', { PX: this.stopWithinMs });
      await this.#redis.publish(keys.receiptsChannel(), key);
    } catch (error) {
      this.options.logger.warn({ err: error, id }, 'could not tell the sender of a steer what became of it: Redis did not answer');
    }
  }

  acquire(id: string): Promise<void> {
    return redisCall('take a run slot', async () => {
      const now = Date.now();
      const { maxConcurrent, leaseMs } = this.options;
      const [acquired, taken] = (await this.#redis.eval(ACQUIRE, {
        keys: [this.store.keys.leases()],
        arguments: [String(now), String(now + leaseMs), String(maxConcurrent), id],
      })) as [number, number];
      if (acquired !== 1) throw new CapacityError(taken, maxConcurrent);
      this.#owned.add(id);
    });
  }

  release(id: string): Promise<void> {
    this.#owned.delete(id);
    return redisCall('give back a run slot', async () => {
      await this.#redis.zRem(this.store.keys.leases(), id);
      await this.#redis.del(this.store.keys.stop(id));
      // The inputs it never took: their steers' senders hear that it refused them.
      await this.#drain(id);
    });
  }

  sendInput(id: string, input: RunInput): Promise<void> {
    return this.#push(id, input);
  }

  #push(id: string, input: SentInput): Promise<void> {
    const { keys } = this.store;
    return redisCall('send an input to a run', async () => {
      await this.#redis.multi().rPush(keys.inputs(id), JSON.stringify(input)).pExpire(keys.inputs(id), STOP_REQUEST_MS).execAsPipeline();
      await this.#redis.publish(keys.inputsChannel(), id);
    });
  }

  sendSteer(id: string, input: string, withinMs: number): Promise<SteerReceipt | undefined> {
    const receipt = randomUUID();
    const key = this.store.keys.receipt(id, receipt);
    // Listening before it sends: the receipt's announcement cannot come first. The key is the receipt, the
    // announcement only the moment to read it; one missed is read at the end of the wait.
    const readable$ = merge(
      this.#receipts.pipe(filter((announced) => announced === key)),
      timer(withinMs),
      defer(() => this.#push(id, { type: 'steer', input, receipt })).pipe(ignoreElements()),
    );
    return firstValueFrom(
      readable$.pipe(
        take(1),
        concatMap(() =>
          redisCall('read the receipt of a steer', async () => ((await this.#redis.get(key)) as SteerReceipt | null) ?? undefined),
        ),
      ),
    );
  }

  requestStop(id: string): Promise<void> {
    return redisCall('request a stop', async () => {
      await this.#redis.set(this.store.keys.stop(id), String(Date.now()), { PX: STOP_REQUEST_MS });
      await this.#redis.publish(this.store.keys.stops(), id);
    });
  }

  stopRequested(id: string): Promise<boolean> {
    return redisCall('read a stop request', async () => (await this.#redis.exists(this.store.keys.stop(id))) === 1);
  }

  /** Stops the heartbeat and the stop listener; the lease then expires as a dead instance's would. */
  async close(): Promise<void> {
    clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
    this.#stops.complete();
    this.#sweeps.complete();
    this.#takenOver.complete();
    this.#inputs.complete();
    this.#receipts.complete();
    if (this.#subscriber.isOpen) this.#subscriber.destroy();
  }
}
