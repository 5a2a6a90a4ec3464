// The public library API: everything needed to embed rxgate, write an agent, or add operators.
export type {
  Agent,
  AgentRequest,
  ChatMessage,
  ClientTool,
  ContentPart,
  ModelOptions,
  ResponseFormat,
  ToolCall,
  ToolChoice,
} from './agent/agent.js';
export type { AgentEvent, AgentEventOf, FinishReason, Usage } from './agent/agentEvent.js';
export { assembleToolCalls } from './agent/assembleToolCalls.js';
export { Cancellation } from './agent/cancellation.js';
export { clientToolConflicts, type ClientToolConflict } from './agent/clientToolConflicts.js';
export { createRun, type CreateRunOptions, type InterruptibleRun } from './agent/createRun.js';
export { findOrphanToolMessage } from './agent/findOrphanToolMessage.js';
export { InterruptReason } from './agent/interruptReason.js';
export { createLlmAgent, type LlmAgentOptions } from './agent/llm/createLlmAgent.js';
export { createOfflineAgent, type OfflineAgentOptions } from './agent/offline/createOfflineAgent.js';
export { BUILTIN_TOOLS, createToolRegistry, selectTools, type ToolRegistry } from './agent/tools/createToolRegistry.js';
export { approvalPolicy } from './agent/tools/approvalPolicy.js';
export { gateToolCall, type ToolGate } from './agent/tools/gateToolCall.js';
export { noteTool } from './agent/tools/noteTool.js';
export { APPROVAL_CHOICES, type ApprovalAnswer, type ApprovalChoice, type Approvals } from './agent/approval.js';
export { defineTool, type Tool, type ToolProgress, type ToolRunContext, type ToolSource } from './agent/tools/tool.js';
export { createMcpManager, type McpManager, type McpManagerOptions } from './agent/tools/mcp/createMcpManager.js';
export { loadMcpConfig } from './agent/tools/mcp/loadMcpConfig.js';
export type { McpServerConfig } from './agent/tools/mcp/mcpServerConfig.js';
export type { McpServerState, McpServerStatus } from './agent/tools/mcp/mcpServerState.js';

export { loadConfig, SETTINGS, type Config } from './config.js';
export { createAgentFor } from './createAgentFor.js';
export { createApp, type AppConfig, type CreateAppOptions, type RxgateApp } from './http/createApp.js';
export type { RequestClasses } from './http/express/expressBorn.js';
export { startServer, type RunningServer, type StartServerOptions } from './http/startServer.js';
export { createLogger, type Logger } from './logger.js';

export { AgentError } from './errors/AgentError.js';
export { ClientGoneError } from './errors/ClientGoneError.js';
export { ConfigError } from './errors/ConfigError.js';
export { DeadlineError } from './errors/DeadlineError.js';
export { RequestError } from './errors/RequestError.js';
export { RxgateError } from './errors/RxgateError.js';
export { SlowClientError } from './errors/SlowClientError.js';
export { SseFrameError } from './errors/SseFrameError.js';
export { UpstreamError, type UpstreamErrorKind } from './errors/UpstreamError.js';
export { toOpenAIError, type OpenAIErrorBody } from './errors/toOpenAIError.js';

export { coalesce, deadline, maxOutput, measure, rateLimit } from './operators/index.js';
export type {
  CoalesceOptions,
  DeadlineOptions,
  MaxOutputOptions,
  MeasureOptions,
  RateLimitOptions,
  StreamMetrics,
} from './operators/index.js';
export { applyOperators } from './pipeline/applyOperators.js';
export { composeOperators } from './pipeline/composeOperators.js';
export type { EventOperator, PipelineContext } from './pipeline/pipelineContext.js';
export type { ChunkOperator, PipelineOperators } from './http/pipelineOperators.js';
export type { ProtocolOperators } from './pipeline/protocolOperators.js';

export { chatProtocol } from './chat/chatProtocol.js';
export type { ChatCompletionChunk, ChatCompletionMeta } from './chat/chatCompletionChunk.js';
export { toChatChunks } from './chat/toChatChunks.js';
export { toChatCompletion, type ChatCompletion } from './chat/toChatCompletion.js';
export { done, DONE_FRAME } from './chat/done.js';
export { errorFrame } from './chat/errorFrame.js';
export { keepalive, KEEPALIVE_FRAME } from './sse/keepalive.js';
export { serializeComment, serializeFrame, type SseMessage } from './sse/serializeFrame.js';
export { sseFrames } from './sse/sseFrames.js';
export { clientClose$ } from './serving/clientClose.js';
export { ssePipeline, type SsePipelineOptions } from './pipeline/ssePipeline.js';
export type { SseProtocol } from './pipeline/sseProtocol.js';
export { writeTo, type WriteToOptions } from './sse/writeTo.js';
export type { SseSink } from './sse/sseSink.js';
export type { Store } from './store/Store.js';
export type { RunStore, RunRecord } from './store/RunStore.js';
export type { ResponseStore, ResponseRecord, StoredResponse } from './store/ResponseStore.js';
export type { EventLog, LoggedEvent } from './store/EventLog.js';
export { SqliteStore, type SqliteStoreOptions } from './store/sqlite/SqliteStore.js';
export { retentionPolicy, type RetentionPolicy } from './store/retentionPolicy.js';
export { StoreError } from './errors/StoreError.js';

export { startTracing, type TracingConfig } from './tracing/startTracing.js';
export { NO_TRACING, type Tracing } from './tracing/Tracing.js';
export type { RunTrace } from './tracing/RunTrace.js';
