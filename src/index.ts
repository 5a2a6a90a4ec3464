// The public library API: everything needed to embed rxgate, write an agent, or add operators.
export type { Agent, AgentRequest, ChatMessage, ContentPart, ToolCall } from './agent/agent.js';
export type { AgentEvent, AgentEventOf, FinishReason, Usage } from './agent/agentEvent.js';
export { Cancellation } from './agent/cancellation.js';
export { createRun, type CreateRunOptions, type InterruptibleRun } from './agent/createRun.js';
export { InterruptReason } from './agent/interruptReason.js';
export { createLlmAgent, type LlmAgentOptions } from './agent/llm/createLlmAgent.js';
export { createOfflineAgent, type OfflineAgentOptions } from './agent/offline/createOfflineAgent.js';
export { BUILTIN_TOOLS, createToolRegistry, selectTools, type ToolRegistry } from './agent/tools/createToolRegistry.js';
export { defineTool, type Tool, type ToolProgress, type ToolRunContext, type ToolSource } from './agent/tools/tool.js';
export { createMcpManager, type McpManager, type McpManagerOptions } from './agent/tools/mcp/createMcpManager.js';
export { loadMcpConfig } from './agent/tools/mcp/loadMcpConfig.js';
export type { McpServerConfig } from './agent/tools/mcp/mcpServerConfig.js';
export type { McpServerState, McpServerStatus } from './agent/tools/mcp/mcpServerState.js';

export { loadConfig, SETTINGS, type Config } from './config.js';
export { createAgentFor } from './createAgentFor.js';
export { createApp, type AppConfig, type CreateAppOptions, type RxgateApp } from './http/createApp.js';
export { startServer, type RunningServer, type StartServerOptions } from './server.js';
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
export type { ChunkOperator, EventOperator, PipelineContext, PipelineOperators } from './pipeline/pipelineOperators.js';

export { chatCompletionFrames } from './protocol/chatCompletionFrames.js';
export type { ChatCompletionChunk, ChatCompletionMeta } from './protocol/chatCompletionChunk.js';
export { toChatChunks } from './protocol/toChatChunks.js';
export { toChatCompletion, type ChatCompletion } from './protocol/toChatCompletion.js';
export { done, DONE_FRAME } from './sse/done.js';
export { errorFrame } from './sse/errorFrame.js';
export { keepalive, KEEPALIVE_FRAME } from './sse/keepalive.js';
export { serializeComment, serializeFrame, type SseMessage } from './sse/serializeFrame.js';
export { sseFrames } from './sse/sseFrames.js';
export { clientClose$ } from './http/clientClose.js';
export { streamToClient, type StreamToClientOptions } from './http/streamToClient.js';
export { writeTo, type WriteToOptions } from './http/writeTo.js';
export type { SseSink } from './http/sseSink.js';
export { Store, type StoreOptions } from './store/Store.js';
export type { RetentionPolicy } from './store/enforceRetention.js';
