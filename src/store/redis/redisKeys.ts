import { createHash } from 'node:crypto';

/**
 * The names of rxgate's keys under `prefix`. Everything of one run or response carries its id as
 * a hash tag (`{run_...}`), so that it lives in one slot of a Redis Cluster; the indexes that span
 * runs (unfinished, settled, leases) are keys of their own.
 */
export class RedisKeys {
  constructor(readonly prefix: string) {}

  run(id: string): string {
    return `${this.prefix}{${id}}:run`;
  }

  response(id: string): string {
    return `${this.prefix}{${id}}:response`;
  }

  /** Why a response is gone ('evicted' or 'deleted'); set when it settles, so that it outlives the response's own TTL. */
  tombstone(id: string): string {
    return `${this.prefix}{${id}}:tombstone`;
  }

  /** Who made run or response `id` (a principal id): beside the item, and for a response as long as its tombstone. */
  principal(id: string): string {
    return `${this.prefix}{${id}}:principal`;
  }

  events(streamId: string): string {
    return `${this.prefix}{${streamId}}:events`;
  }

  /** The sharded channel on which appends to the stream `eventsKey` are announced (on a Redis Cluster): the stream's name, so its slot, and `:appended`. */
  appended(eventsKey: string): string {
    return `${eventsKey}:appended`;
  }

  /** A durable stop request: set by whichever instance was asked, read by the owner. */
  stop(id: string): string {
    return `${this.prefix}{${id}}:stop`;
  }

  /** People's inputs (approval answers, steers) for a run, oldest first: pushed by whichever instance was asked, popped by the owner. */
  inputs(id: string): string {
    return `${this.prefix}{${id}}:inputs`;
  }

  /** What the owner of run `id` did with steer `receipt` ('queued' or 'refused'): set by the owner, read by the instance that sent it. */
  receipt(id: string, receipt: string): string {
    return `${this.prefix}{${id}}:receipt:${receipt}`;
  }

  /** The ids of the runs (or responses) still queued or running. */
  unfinished(kind: 'runs' | 'responses'): string {
    return `${this.prefix}unfinished:${kind}`;
  }

  /** Settled responses (finished runs), scored by when they were created: what retention trims. */
  settled(kind: 'runs' | 'responses'): string {
    return `${this.prefix}settled:${kind}`;
  }

  /** The usage ledger's rows, one entry a model call, trimmed by age as entries are added. */
  usageCalls(): string {
    return `${this.prefix}usage:calls`;
  }

  /** The sums of the hour starting at `hourStartMs`, a hash field per group and measure: what `GET /api/usage` reads. */
  usageHour(hourStartMs: number): string {
    return `${this.prefix}usage:hour:${hourStartMs}`;
  }

  /** Key `key`'s settled spend in budget series `series`, whole picodollars a bucket; tagged with the key, beside its holds. */
  budgetSpent(key: string, series: string): string {
    return `${this.prefix}budget:{${key}}:spent:${series}`;
  }

  /** Key `key`'s budget holds in flight: id to `picodollars:expires at`. */
  budgetHolds(key: string): string {
    return `${this.prefix}budget:{${key}}:holds`;
  }

  /** Tombstones, scored by when they were left: capped like SQLite's. */
  tombstones(): string {
    return `${this.prefix}tombstones`;
  }

  /** An instance's lease: present while it renews it (its heartbeat); an unfinished item whose owner's lease is gone is an orphan. */
  instance(instanceId: string): string {
    return `${this.prefix}instance:${instanceId}`;
  }

  /** The runs in flight on every instance, for the cluster-wide cap: member id, score the time its slot expires unless renewed. */
  leases(): string {
    return `${this.prefix}leases`;
  }

  /** The channel on which stop requests are announced (a wake-up; the stop key is the request). */
  stops(): string {
    return `${this.prefix}stops`;
  }

  /** The channel on which inputs are announced (a wake-up; the inputs list holds them). */
  inputsChannel(): string {
    return `${this.prefix}inputs`;
  }

  /** The channel on which receipts are announced (a wake-up naming the receipt's key; the key holds it). */
  receiptsChannel(): string {
    return `${this.prefix}receipts`;
  }

  /** A scheduled job: `body` and `last_slot`, the last slot an instance claimed. */
  job(id: string): string {
    return `${this.prefix}{${id}}:job`;
  }

  /** A job's fires, newest first. */
  jobFires(id: string): string {
    return `${this.prefix}{${id}}:fires`;
  }

  /** The ids of every job, scored by when it was made. */
  jobs(): string {
    return `${this.prefix}jobs`;
  }

  /** The times of a key's requests in the last minute (its `rpm`). */
  keyRequests(keyId: string): string {
    return `${this.prefix}key:{${keyId}}:requests`;
  }

  /** A key's stream slots in flight (its `maxStreams`), scored by when each lapses unless renewed. */
  keyStreams(keyId: string): string {
    return `${this.prefix}key:{${keyId}}:streams`;
  }

  /** The record of `owner`'s `Idempotency-Key` `key` (the key is hashed: it is the client's, of any visible characters). */
  idempotency(owner: string, key: string): string {
    return `${this.prefix}idempotency:${owner}:${createHash('sha256').update(key).digest('hex')}`;
  }

  readyProbe(): string {
    return `${this.prefix}ready_probe`;
  }
}
