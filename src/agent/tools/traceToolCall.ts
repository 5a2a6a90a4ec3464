import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import { defer, type Observable } from 'rxjs';
import type { RunTrace } from '../../tracing/RunTrace.js';
import { traced } from '../../tracing/traced.js';
import type { AgentEvent } from '../agentEvent.js';
import type { ToolCallRequest } from './runToolCall.js';
import type { Tool } from './tool.js';

/**
 * One tool call as an `execute_tool {name}` span (GenAI conventions): the call id, the MCP server
 * a tool comes from, the approval wait as the events `rxgate.approval_required` and
 * `rxgate.approval_resolved`, and, with content capture on, the arguments and the result. A tool
 * that fails (or a refused call) is an error; a cancel is not. `call$` is handed the call with
 * the span's W3C headers, which an MCP tool sends to its server.
 */
export function traceToolCall(
  trace: RunTrace,
  tool: Tool | undefined,
  call: ToolCallRequest,
  call$: (call: ToolCallRequest) => Observable<AgentEvent>,
): Observable<AgentEvent> {
  return defer(() => traceOneCall(trace, tool, call, call$));
}

function traceOneCall(
  trace: RunTrace,
  tool: Tool | undefined,
  call: ToolCallRequest,
  call$: (call: ToolCallRequest) => Observable<AgentEvent>,
): Observable<AgentEvent> {
  const { tracing } = trace;
  // Per subscription, as the span is.
  let denied = false;
  const onValue = (span: Span, event: AgentEvent) => {
    if (event.type === 'approval_required') span.addEvent('rxgate.approval_required', { 'rxgate.approval_id': event.approvalId });
    else if (event.type === 'approval_resolved') {
      denied = event.choice === 'deny';
      span.addEvent('rxgate.approval_resolved', {
        'rxgate.approval_id': event.approvalId,
        'rxgate.approval.choice': event.choice,
        'rxgate.approval.by': event.by,
      });
    } else if (event.type === 'tool_end') {
      if (event.error !== undefined) {
        span.setAttribute('error.type', denied ? 'approval_denied' : 'tool_error');
        span.setStatus({ code: SpanStatusCode.ERROR, message: event.error });
      }
      if (tracing.captureContent) span.setAttribute('gen_ai.tool.call.result', event.error ?? event.result ?? '');
    }
  };
  return traced(
    trace,
    {
      name: `execute_tool ${call.name}`,
      kind: SpanKind.INTERNAL,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': call.name,
        'gen_ai.tool.call.id': call.callId,
        'gen_ai.tool.type': tool?.origin ? 'extension' : 'function',
        ...(tool?.origin ? { 'rxgate.mcp.server_name': tool.origin.server, 'rxgate.mcp.tool_name': tool.origin.tool } : {}),
        ...(tracing.captureContent ? { 'gen_ai.tool.call.arguments': call.arguments } : {}),
      },
      onValue,
    },
    (context) => call$({ ...call, traceHeaders: tracing.inject(context) }),
  );
}
