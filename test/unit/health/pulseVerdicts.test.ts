import { describe, expect, it } from 'vitest';
import { Heartbeat, readPulse } from '../../../src/health/heartbeat.js';
import { overloadReason, stalledReason } from '../../../src/health/pulseVerdicts.js';

const limits = { periodMs: 10, maxDelayMs: 200, stallMs: 10_000 };

describe('what the health thread reads from the main thread pulse', () => {
  it('is live until the main loop has been silent for longer than stallMs', () => {
    const pulse = { beatAt: 1_000, overloadedByMs: undefined };
    expect(stalledReason(pulse, 11_000, limits)).toBeUndefined();
    expect(stalledReason(pulse, 11_001, limits)).toBe('event loop: no progress for 10001 ms (over 10000 ms)');
  });

  it('reports overload when the last beat said so, or when the next beat is overdue past the limit', () => {
    expect(overloadReason({ beatAt: 1_000, overloadedByMs: undefined }, 1_210, limits)).toBeUndefined();
    expect(overloadReason({ beatAt: 1_000, overloadedByMs: undefined }, 1_211, limits)).toBe(
      'event loop: overloaded, 201 ms behind (over 200 ms)',
    );
    expect(overloadReason({ beatAt: 1_000, overloadedByMs: 350 }, 1_005, limits)).toBe(
      'event loop: overloaded, 350 ms behind (over 200 ms)',
    );
  });

  it('never reports overload with the limit off', () => {
    expect(overloadReason({ beatAt: 1_000, overloadedByMs: undefined }, 60_000, { ...limits, maxDelayMs: 0 })).toBeUndefined();
  });

  it('carries the beat time and the overload state across threads in shared memory', () => {
    const load = { overloaded: false, delayMs: 3 };
    const startedAt = Date.now();
    const heartbeat = new Heartbeat(load).start();
    try {
      const before = Date.now();
      expect(readPulse(heartbeat.memory)).toEqual({ beatAt: expect.any(Number), overloadedByMs: undefined });
      expect(readPulse(heartbeat.memory).beatAt).toBeLessThanOrEqual(before);
      expect(readPulse(heartbeat.memory).beatAt).toBeGreaterThanOrEqual(startedAt);
      load.overloaded = true;
      load.delayMs = 412.4;
      heartbeat.stop();
      heartbeat.start();
      expect(readPulse(heartbeat.memory).overloadedByMs).toBe(412);
    } finally {
      heartbeat.stop();
    }
  });
});
