import { SpanKind } from '@opentelemetry/api';
import { defer } from 'rxjs';
import type { RunTrace } from '../tracing/RunTrace.js';
import { traced } from '../tracing/traced.js';
import type { Agent } from './agent.js';
import type { AgentEvent } from './agentEvent.js';
import { sumUsage, ZERO_USAGE } from './sumUsage.js';

/**
 * The agent, each of whose runs that carries a `trace` (the request's server span) is an
 * `invoke_agent` span: its usage and finish reason, ended with the run, cancelled with its interrupt
 * reason. The run's own spans (model calls, tool calls) hang below it through `request.trace`.
 */
export function traceAgent(agent: Agent): Agent {
  const tracedAgent: Agent = {
    description: agent.description,
    get serverToolNames() {
      return agent.serverToolNames;
    },
    // The routes clients may ask for: without them, every model name would pass as one the agent answers to.
    get models() {
      return agent.models;
    },
    close: agent.close && (() => agent.close!()),
    run(request, cancellation) {
      if (!request.trace) return agent.run(request, cancellation);
      const parent: RunTrace = { ...request.trace, interruptReason: () => cancellation.reason };
      // The run's usage so far, per subscription, as the span is.
      return defer(() => {
        let usage = ZERO_USAGE;
        return traced<AgentEvent>(
          parent,
          {
            name: 'invoke_agent',
            kind: SpanKind.INTERNAL,
            attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'rxgate', 'gen_ai.request.model': request.model },
            onValue: (span, event) => {
              if (event.type === 'usage') {
                usage = sumUsage(usage, event.usage);
                span.setAttributes({ 'gen_ai.usage.input_tokens': usage.inputTokens, 'gen_ai.usage.output_tokens': usage.outputTokens });
              } else if (event.type === 'finish') span.setAttribute('gen_ai.response.finish_reasons', [event.reason]);
            },
          },
          (context) => agent.run({ ...request, trace: { ...parent, context } }, cancellation),
        );
      });
    },
  };
  return tracedAgent;
}
