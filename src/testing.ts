// `rxgate/testing`: marble-test what you add to rxgate's pipeline exactly as rxgate tests its own.
export { FakeSink, type FakeSinkScript } from './testing/FakeSink.js';
export { recordedRun, type InterruptHandle, type RecordedRun } from './testing/recordedRun.js';
export { runChatPipeline, TEST_META, type ChatPipelineScript, type ChatPipelineUnderTest } from './testing/runChatPipeline.js';
