// `rxgate/testing`: marble-test what you add to rxgate's pipeline exactly as rxgate tests its own.
export { FakeSink, type FakeSinkScript } from './testing/FakeSink.js';
export type { PipelineUnderTest } from './testing/PipelineUnderTest.js';
export { recordedRun, type InterruptHandle, type RecordedRun } from './testing/recordedRun.js';
export type { SsePipelineScript } from './testing/runSsePipeline.js';
export { runChatPipeline, TEST_META, type ChatPipelineScript } from './testing/runChatPipeline.js';
export { runResponsePipeline, TEST_RESPONSE_META, type ResponsePipelineScript } from './testing/runResponsePipeline.js';
export { runMessagesPipeline, TEST_MESSAGE_META, type MessagesPipelineScript } from './testing/runMessagesPipeline.js';
export { runRunEvents, type RunEventsScript } from './testing/runRunEvents.js';
