/** A field rxgate cannot honour, and why. */
export interface Unsupported {
  readonly param: string;
  readonly why: string;
}

const isSet = (value: unknown): boolean => value !== undefined && value !== null;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const NO_LOGPROBS = 'rxgate does not return log probabilities';
const TEXT_ONLY = 'rxgate answers in text only';

/** Top-level fields of the Chat Completions API and the values of them that ask for what rxgate cannot do. */
const REFUSED: readonly (readonly [param: string, refuses: (value: unknown) => boolean, why: string])[] = [
  ['n', (value) => isSet(value) && value !== 1, 'rxgate returns one choice per request; send n: 1 or leave it out'],
  ['logprobs', (value) => value === true, NO_LOGPROBS],
  ['top_logprobs', (value) => isSet(value) && value !== 0, NO_LOGPROBS],
  ['audio', isSet, TEXT_ONLY],
  ['modalities', (value) => Array.isArray(value) && value.some((modality) => modality !== 'text'), `${TEXT_ONLY}; send ["text"]`],
  ['prediction', isSet, 'predicted outputs are not supported'],
  ['web_search_options', isSet, 'rxgate has no web search; its own tools are listed in its README'],
  ['functions', isSet, 'the deprecated functions parameter is not supported; send tools instead'],
  ['function_call', isSet, 'the deprecated function_call parameter is not supported; send tool_choice instead'],
];

const PART_TYPES_REFUSED = new Set(['input_audio', 'file']);
const CLIENT_TOOL_TYPES = new Set(['function', 'custom']);

/**
 * The first field of a chat completion request that rxgate knows but cannot honour: `n` above 1,
 * log probabilities, audio, predicted outputs, web search, the legacy `functions`, a tool that is
 * neither a function nor a custom tool, a content part that is neither text nor an image. Checked before the schema, so
 * that the answer is "unsupported", not "invalid".
 */
export function findUnsupportedChatParameter(body: Record<string, unknown>): Unsupported | undefined {
  for (const [param, refuses, why] of REFUSED) if (refuses(body[param])) return { param, why };
  const tools = Array.isArray(body.tools) ? body.tools : [];
  for (const [index, tool] of tools.entries()) {
    if (isObject(tool) && typeof tool.type === 'string' && !CLIENT_TOOL_TYPES.has(tool.type)) {
      return { param: `tools[${index}].type`, why: `rxgate passes through function and custom tools only, not '${tool.type}'` };
    }
  }
  const choice = body.tool_choice;
  if (isObject(choice) && typeof choice.type === 'string' && !CLIENT_TOOL_TYPES.has(choice.type)) {
    return { param: 'tool_choice.type', why: `rxgate supports auto, none, required or one function or custom tool, not '${choice.type}'` };
  }
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (const [index, message] of messages.entries()) {
    const parts = isObject(message) && Array.isArray(message.content) ? message.content : [];
    for (const [partIndex, part] of parts.entries()) {
      if (isObject(part) && typeof part.type === 'string' && PART_TYPES_REFUSED.has(part.type)) {
        return {
          param: `messages[${index}].content[${partIndex}].type`,
          why: `rxgate forwards text and image parts only, not '${part.type}'`,
        };
      }
    }
  }
  return undefined;
}
