import { ApiError, call, storeKey, storedKey } from './api.js';
import { el } from './dom.js';

/** Whether `key` (none: no key) opens `/v1`: true, false on a 401; anything else throws. */
async function opens(key) {
  try {
    await call('GET', '/v1/models', undefined, { key });
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return false;
    throw error;
  }
}

/**
 * Resolves once the page may call `/v1`: at once on a server without keys; with the key this tab
 * already gave; else after the user signs in with a key the server takes (kept in `sessionStorage`,
 * for this tab only). A wrong key is said so, and asked again.
 */
export async function signIn(container, { keyRequired }) {
  if (!keyRequired) return;
  const saved = storedKey();
  if (saved && (await opens(saved))) return;
  storeKey(null);
  const input = el('input', {
    id: 'api-key',
    name: 'api-key',
    type: 'password',
    autocomplete: 'current-password',
    required: true,
    spellcheck: 'false',
  });
  const error = el('p', { class: 'error', role: 'alert', id: 'sign-in-error' });
  const button = el('button', { type: 'submit' }, 'Sign in');
  const form = el(
    'form',
    { class: 'sign-in', 'aria-labelledby': 'sign-in-title' },
    el('h2', { id: 'sign-in-title' }, 'Sign in'),
    el('p', {}, 'This server asks for an API key. It is kept in this tab only.'),
    el('label', { for: 'api-key' }, 'API key'),
    input,
    button,
    error,
  );
  container.replaceChildren(form);
  input.focus();
  await new Promise((resolve) => {
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      button.disabled = true;
      error.textContent = '';
      try {
        if (await opens(input.value)) {
          storeKey(input.value);
          resolve();
          return;
        }
        error.textContent = 'That key was refused. Check it and try again.';
        input.setAttribute('aria-invalid', 'true');
        input.select();
      } catch (failure) {
        error.textContent = failure.message;
      } finally {
        button.disabled = false;
      }
    });
  });
  form.remove();
}
