import { Observable, type MonoTypeOperatorFunction, type Subscriber } from 'rxjs';
import type { AgentEvent, Usage } from '../agent/agentEvent.js';
import { sumUsage, ZERO_USAGE } from '../agent/sumUsage.js';
import { UpstreamError } from '../errors/UpstreamError.js';
import type { Metrics } from '../metrics/createMetrics.js';
import { Stage } from '../rx/Stage.js';

const ignoreUsage = (): void => undefined;

/** Records one run, held by every open stream for the run's life. */
class RunRecorder extends Stage<AgentEvent> {
  private readonly started = performance.now();
  private sawToken = false;
  private usage = ZERO_USAGE;

  constructor(
    destination: Subscriber<AgentEvent>,
    private readonly metrics: Metrics,
    private readonly onUsage: (usageSoFar: Usage) => void,
    private readonly key: string | undefined,
  ) {
    super(destination);
  }

  protected onNext(event: AgentEvent): void {
    const { metrics, key } = this;
    if (!this.sawToken && (event.type === 'text' || event.type === 'reasoning')) {
      this.sawToken = true;
      metrics.timeToFirstToken.observe((performance.now() - this.started) / 1000);
    } else if (event.type === 'usage') {
      this.usage = sumUsage(this.usage, event.usage);
      metrics.tokens.inc({ direction: 'in' }, event.usage.inputTokens);
      metrics.tokens.inc({ direction: 'out' }, event.usage.outputTokens);
      if (key !== undefined) {
        metrics.keyTokens.inc({ key, direction: 'in' }, event.usage.inputTokens);
        metrics.keyTokens.inc({ key, direction: 'out' }, event.usage.outputTokens);
      }
      this.onUsage(this.usage);
    }
    this.destination.next(event);
  }

  protected override onError(error: unknown): void {
    if (error instanceof UpstreamError) this.metrics.upstreamErrors.inc({ kind: error.kind });
    this.destination.error(error);
  }
}

/**
 * Records a run's time to first token, its tokens (also for `key`, a key id, when given) and, when it fails upstream, the kind of
 * failure; keeps its usage so far for the log line of a run that ends early. Does not change
 * the stream. Every route that runs an agent applies it, so no route counts these itself.
 *
 * ```
 * source:   --u--t--t--|
 * result:   --u--t--t--|      first t observed into the time-to-first-token histogram
 * ```
 */
export function recordRunMetrics(
  metrics: Metrics,
  onUsage: (usageSoFar: Usage) => void = ignoreUsage,
  key?: string,
): MonoTypeOperatorFunction<AgentEvent> {
  // One subscriber for the run's life, where defer and tap held two.
  return (events$) => new Observable<AgentEvent>((destination) => new RunRecorder(destination, metrics, onUsage, key).subscribeTo(events$));
}
