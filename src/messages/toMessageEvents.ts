import { Observable, type OperatorFunction, type Subscriber } from 'rxjs';
import type { AgentEvent, AgentEventOf, FinishReason, Usage } from '../agent/agentEvent.js';
import { sumUsage, ZERO_USAGE } from '../agent/sumUsage.js';
import { Stage } from '../rx/Stage.js';
import type { ContentBlock, Message, MessageMeta, MessageStreamEvent, MessageUsage, StopReason } from './messageObjects.js';

type BlockKind = 'text' | 'thinking' | 'tool_use';

/** A block that could not start when its first piece came (another block was open), with all it has said since. */
interface HeldBlock {
  readonly kind: BlockKind;
  /** The client call's `index`, for a `tool_use` block. */
  readonly call?: number;
  readonly id?: string;
  readonly name?: string;
  content: string;
}

const STOP_REASONS: Readonly<Record<FinishReason, StopReason>> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
};

/** `message_start`'s message: no content yet, the request's own count as its input, and the one token every answer starts with. */
export function startedMessage(meta: MessageMeta): Message {
  return {
    id: meta.id,
    type: 'message',
    role: 'assistant',
    model: meta.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: meta.inputTokens, output_tokens: 1 },
  };
}

/** The upstream's own counts, summed over the run's model calls; the request's count when the upstream said nothing. */
function toMessageUsage(usage: Usage, meta: MessageMeta): MessageUsage {
  const { cachedInputTokens } = usage;
  return {
    input_tokens: usage.inputTokens > 0 ? usage.inputTokens : meta.inputTokens,
    output_tokens: usage.outputTokens,
    ...(cachedInputTokens === undefined ? {} : { cache_read_input_tokens: cachedInputTokens }),
  };
}

function emptyBlock(kind: BlockKind, id: string | undefined, name: string | undefined): ContentBlock {
  if (kind === 'text') return { type: 'text', text: '' };
  if (kind === 'thinking') return { type: 'thinking', thinking: '', signature: '' };
  return { type: 'tool_use', id: id ?? '', name: name ?? '', input: {} };
}

/**
 * Encodes one answer as Anthropic's stream, for every open stream: `message_start` at once, then
 * the blocks in index order, one open at a time, then `message_delta` and `message_stop`. A piece
 * of a block goes out as it comes while that block is the open one; a piece of another block
 * while a `tool_use` block is open (a parallel call, text after a call) is held, with every later
 * block, and each held block goes out whole, in the order it began, when the open one has ended:
 * at the end of the model call (a server tool starting, the finish, the end of the run). No piece
 * is dropped at a block change, and a call's first piece (its id, name and first fragment) opens
 * its block with the fragment in it.
 */
class MessageEventEncoder extends Stage<AgentEvent, MessageStreamEvent> {
  private open: { readonly kind: BlockKind; readonly call?: number } | undefined = undefined;
  private held: HeldBlock[] = [];
  private nextIndex = 0;
  private usage = ZERO_USAGE;
  private finishReason: FinishReason | undefined = undefined;
  private refused = false;

  constructor(
    destination: Subscriber<MessageStreamEvent>,
    private readonly meta: MessageMeta,
  ) {
    super(destination);
  }

  protected onNext(event: AgentEvent): void {
    switch (event.type) {
      case 'text':
        this.piece('text', event.delta);
        break;
      case 'refusal':
        this.refused = true;
        this.piece('text', event.delta);
        break;
      case 'reasoning':
        this.piece('thinking', event.delta);
        break;
      case 'tool_call_delta':
        this.callPiece(event);
        break;
      case 'usage':
        this.usage = sumUsage(this.usage, event.usage);
        break;
      case 'finish':
        this.finishReason ??= event.reason;
        this.endBlocks();
        break;
      case 'tool_progress':
      case 'steered':
        break;
      default:
        // A server tool, an approval: the model call before it has ended, and so have its blocks.
        this.endBlocks();
    }
  }

  protected override onComplete(): void {
    this.endBlocks();
    const { destination, meta } = this;
    const stopReason = this.refused ? 'refusal' : STOP_REASONS[this.finishReason ?? 'stop'];
    destination.next({
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: toMessageUsage(this.usage, meta),
    });
    destination.next({ type: 'message_stop' });
    destination.complete();
  }

  private piece(kind: 'text' | 'thinking', delta: string): void {
    const { open } = this;
    if (this.held.length === 0 && open?.kind === kind) this.delta(kind, delta);
    else if (this.held.length === 0 && open?.kind !== 'tool_use') {
      this.endOpen();
      this.start(kind);
      this.delta(kind, delta);
    } else {
      const last = this.held.at(-1);
      if (last?.kind === kind) last.content += delta;
      else this.held.push({ kind, content: delta });
    }
  }

  private callPiece({ index: call, id, name, arguments: fragment }: AgentEventOf<'tool_call_delta'>): void {
    const { open } = this;
    if (open?.kind === 'tool_use' && open.call === call) {
      if (fragment !== '') this.delta('tool_use', fragment);
    } else if (this.held.length === 0 && open?.kind !== 'tool_use') {
      this.endOpen();
      this.start('tool_use', call, id, name);
      if (fragment !== '') this.delta('tool_use', fragment);
    } else {
      const held = this.held.find((block) => block.kind === 'tool_use' && block.call === call);
      if (held) held.content += fragment;
      else this.held.push({ kind: 'tool_use', call, id, name, content: fragment });
    }
  }

  private start(kind: BlockKind, call?: number, id?: string, name?: string): void {
    this.open = { kind, call };
    this.destination.next({ type: 'content_block_start', index: this.nextIndex, content_block: emptyBlock(kind, id, name) });
  }

  private delta(kind: BlockKind, text: string): void {
    const index = this.nextIndex;
    if (kind === 'text') this.destination.next({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
    else if (kind === 'thinking')
      this.destination.next({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: text } });
    else this.destination.next({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: text } });
  }

  /** Ends the open block; a thinking block gets the (empty) signature an OpenAI-wire upstream never gives. */
  private endOpen(): void {
    const { open, destination } = this;
    if (!open) return;
    const index = this.nextIndex++;
    this.open = undefined;
    if (open.kind === 'thinking')
      destination.next({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: '' } });
    destination.next({ type: 'content_block_stop', index });
  }

  /** Ends the open block, then sends every held one whole, in the order it began. */
  private endBlocks(): void {
    this.endOpen();
    const { held } = this;
    if (held.length === 0) return;
    this.held = [];
    for (const block of held) {
      this.start(block.kind, block.call, block.id, block.name);
      if (block.content !== '') this.delta(block.kind, block.content);
      this.endOpen();
    }
  }
}

/**
 * The agent's events as Anthropic's Messages stream: `message_start` before anything the upstream
 * says, blocks in index order (text, thinking from the upstream's reasoning, `tool_use` for a
 * client's tool), `message_delta` with the stop reason and the upstream's usage, `message_stop`.
 * Server tools run inside the run and show no block. An error goes on, for the protocol to frame.
 *
 * ```
 * events:  text "Hi" · call 0 '{"a' · call 1 '{"b' · call 0 ':1}' · finish tool_calls
 * stream:  message_start · [0 text] "Hi" · stop 0 · [1 tool_use] '{"a' · ':1}' · stop 1 · [2 tool_use] '{"b' · stop 2
 *          · message_delta (tool_use) · message_stop
 * ```
 */
export function toMessageEvents(meta: MessageMeta): OperatorFunction<AgentEvent, MessageStreamEvent> {
  return (events$) =>
    new Observable<MessageStreamEvent>((destination) => {
      destination.next({ type: 'message_start', message: startedMessage(meta) });
      return new MessageEventEncoder(destination, meta).subscribeTo(events$);
    });
}
