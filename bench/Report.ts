import type { LatencyRow } from './addedLatency.js';
import type { CancellationRow } from './cancellation.js';
import type { ConcurrencyRow } from './concurrency.js';
import type { CpuRow } from './cpuPerRequest.js';
import type { CrossInstanceResult } from './crossInstance.js';
import type { IdempotencyCostRow } from './idempotencyCost.js';
import type { LoadedLatencyRow } from './latencyUnderLoad.js';
import type { MessagesCostRow } from './messagesCost.js';
import type { SocketRolloutRow } from './socketRollout.js';
import type { SoakResult } from './leakSoak.js';
import type { OverloadRow } from './overloadBurst.js';
import type { RoutingCostRow } from './routingCost.js';
import type { ThroughputRow } from './throughput.js';
import type { TracingCostRow } from './tracingCost.js';

/** What one `npm run bench` measured: `bench/results.json`, read by the report and its charts. */
export interface Report {
  readonly machine: { cores: number; cpu: string; memoryGiB: number; node: string; platform: string; nofile?: number };
  readonly plan: Record<string, unknown>;
  readonly quick: boolean;
  readonly latency: readonly LatencyRow[];
  /** Absent from results of runs before the pipe floor. */
  readonly loadedLatency?: readonly LoadedLatencyRow[];
  readonly throughput: readonly ThroughputRow[];
  readonly cancellation: readonly CancellationRow[];
  /** Absent from results of runs before issue 28's figure. */
  readonly tracingCost?: readonly TracingCostRow[];
  /** Absent from results of runs before issue 24's figure. */
  readonly routingCost?: readonly RoutingCostRow[];
  /** Absent from results of runs before issue 25's figure. */
  readonly idempotencyCost?: readonly IdempotencyCostRow[];
  /** Absent from results of runs before issue 45's figure. */
  readonly messagesCost?: readonly MessagesCostRow[];
  /** Absent from results of runs before issue 46's figure. */
  readonly socketRollout?: readonly SocketRolloutRow[];
  readonly concurrency: readonly ConcurrencyRow[];
  readonly soak: SoakResult;
  /** Absent from results of runs before issue 14's figure. */
  readonly crossInstance?: CrossInstanceResult;
  /** Absent from results of runs before issue 26's figures. */
  readonly overload?: readonly OverloadRow[];
  readonly cpu?: readonly CpuRow[];
  readonly minutes: number;
  readonly date: string;
}
