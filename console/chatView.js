import { call } from './api.js';
import { el } from './dom.js';
import { runTurn } from './runTurn.js';

/** The chat: a model picked from `/v1/models`, the conversation so far, and a box to send the next message. */
export async function createChatView() {
  const { data: models } = await call('GET', '/v1/models');
  const history = [];
  const picker = el('select', { id: 'model', name: 'model' }, ...models.map(({ id }) => el('option', { value: id }, id)));
  const prompt = el('textarea', { id: 'prompt', name: 'prompt', rows: 3, required: true });
  const send = el('button', { type: 'submit' }, 'Send');
  const messages = el('ol', { class: 'messages', 'aria-label': 'Conversation' });

  const submit = async (event) => {
    event.preventDefault();
    const text = prompt.value.trim();
    if (text === '' || send.disabled) return;
    prompt.value = '';
    send.disabled = true;
    history.push({ role: 'user', content: text });
    messages.append(el('li', { class: 'message user' }, text));
    history.push(...(await runTurn(messages, { model: picker.value, input: [...history] })));
    send.disabled = false;
    prompt.focus();
  };
  // Enter sends, Shift+Enter is a new line.
  prompt.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      event.target.form.requestSubmit();
    }
  });

  return el(
    'section',
    { id: 'chat', class: 'view', 'aria-labelledby': 'chat-title' },
    el('h2', { id: 'chat-title' }, 'Chat'),
    messages,
    el(
      'form',
      { class: 'composer', onsubmit: submit },
      el('label', { for: 'model' }, 'Model'),
      picker,
      el('label', { for: 'prompt' }, 'Message'),
      prompt,
      send,
    ),
  );
}
