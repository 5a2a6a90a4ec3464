import { createChatView } from './chatView.js';
import { el } from './dom.js';
import { createRunsView } from './runsView.js';
import { signIn } from './signIn.js';
import { openTimeline } from './timelineView.js';

const main = document.getElementById('main');
const nav = document.getElementById('nav');
const signOut = document.getElementById('sign-out');

async function start() {
  const settings = await (await fetch('/console/settings.json')).json();
  await signIn(main, { keyRequired: settings.key_required });
  if (settings.key_required) {
    signOut.hidden = false;
    signOut.addEventListener('click', () => {
      // The key and what the tab kept with it (a run's timeline): the next key to sign in here sees none of it.
      sessionStorage.clear();
      location.reload();
    });
  }
  nav.hidden = false;
  const chat = await createChatView();
  const runs = createRunsView();
  let timeline;

  const route = () => {
    const path = location.hash.replace(/^#/, '') || '/chat';
    timeline?.close();
    timeline = undefined;
    runs.hide();
    const runId = /^\/runs\/([\w-]+)$/.exec(path)?.[1];
    let view = chat;
    if (runId) view = (timeline = openTimeline(runId)).node;
    else if (path === '/runs') {
      view = runs.node;
      runs.show();
    }
    main.replaceChildren(view);
    for (const link of nav.querySelectorAll('a')) {
      const current = link.getAttribute('href') === `#${path}` || (runId && link.getAttribute('href') === '#/runs');
      if (current) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
  };
  window.addEventListener('hashchange', route);
  route();
}

start().catch((error) => main.replaceChildren(el('p', { class: 'error', role: 'alert' }, `The console could not start: ${error.message}`)));
