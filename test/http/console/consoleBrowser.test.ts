import type { Page, Route } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppConfig } from '../../../src/http/createApp.js';
import { useChromium, type ConsolePage } from '../../support/browser.js';
import { followRun } from '../../support/followRun.js';
import { NOTE_NEEDS_APPROVAL } from '../../support/noteNeedsApproval.js';
import { answerApproval, createRun, post } from '../../support/runsClient.js';
import { as, keyOf, teamKeys } from '../../support/teamKeys.js';
import { screenshot } from '../../support/screenshot.js';
import { answer, frames, toolCalls, type UpstreamScript, type UpstreamStep } from '../../support/scriptedUpstream.js';
import { useLlmGateway, type LlmGateway } from '../../support/startLlmGateway.js';

const chromium = useChromium();
const gateways = useLlmGateway();
const opened: ConsolePage[] = [];

afterEach(async () => {
  for (const { page, errors } of opened.splice(0)) {
    await page.close();
    // No view may log an error or break the page's Content-Security-Policy (Chromium reports both on the console).
    expect(errors).toEqual([]);
  }
});

/** A promise and the function that resolves it: a step of a scripted upstream waits for it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, step: { waitFor: opened } satisfies UpstreamStep };
}

/** A model call that refuses in two pieces, the second held until `rest` opens. */
function refusing(rest: UpstreamStep): UpstreamScript {
  const steps = [frames.refusal("I'm sorry, "), rest, frames.refusal('I cannot help with that.')];
  return { steps: [frames.role(), ...steps, frames.finish('stop'), frames.usage(9, 6), frames.done()] };
}
const REFUSAL = "I'm sorry, I cannot help with that.";

async function start(scripts: readonly UpstreamScript[], agent = {}, config: Partial<AppConfig> = {}) {
  return gateways.start(scripts, agent, config);
}

/** Opens the console at `hash` in a new tab (width 1024 unless given) and waits for the view. */
async function openConsole(gateway: LlmGateway, hash = '#/chat', width?: number): Promise<Page> {
  const tab = await chromium.open(width);
  opened.push(tab);
  await tab.page.goto(`${gateway.url}/console${hash}`);
  return tab.page;
}

async function send(page: Page, text: string) {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

describe('the console in Chromium', () => {
  it('sends a browser from / to the console, which works without a key on a server that has none', async () => {
    const { gateway } = await start([answer('Hello', ' there.')]);
    const page = await openConsole(gateway, '');
    await page.goto(`${gateway.url}/`);
    expect(new URL(page.url()).pathname).toBe('/console');
    await send(page, 'Hi');
    await page.locator('.message.assistant[data-state="completed"]').waitFor();
    expect(await page.locator('.answer-text').textContent()).toBe('Hello there.');
    expect(await page.getByRole('combobox', { name: 'Model' }).inputValue()).toBe('rxgate-agent');
  });

  it('asks for the key when the server has one, says when it is wrong, and signs in with the right one', async () => {
    const { gateway } = await start([answer('Signed in.')], {}, { apiKey: 'console-test-key-0123456789' });
    const tab = await chromium.open();
    await tab.page.goto(`${gateway.url}/console`);
    await tab.page.getByLabel('API key').fill('not-the-key');
    await tab.page.getByRole('button', { name: 'Sign in' }).click();
    await tab.page.getByRole('alert').filter({ hasText: 'That key was refused' }).waitFor();
    await screenshot(tab.page, 'sign-in');
    await tab.page.getByLabel('API key').fill('console-test-key-0123456789');
    await tab.page.getByRole('button', { name: 'Sign in' }).click();
    await send(tab.page, 'Hi');
    await tab.page.locator('.message.assistant[data-state="completed"]').waitFor();
    expect(await tab.page.evaluate('sessionStorage.getItem("rxgate.apiKey")')).toBe('console-test-key-0123456789');
    // The refused key's 401 is the only error the browser logged.
    expect(tab.errors).toEqual([expect.stringContaining('401')]);
    await tab.page.close();
  });

  it('streams an answer and stops it: the upstream request is aborted, the page says stopped, no spinner is left', async () => {
    const { gateway, upstream } = await start([{ steps: [frames.role(), frames.text('Once upon'), { stall: true }] }]);
    const page = await openConsole(gateway);
    await send(page, 'Tell me a long story');
    await page.locator('.answer-text', { hasText: 'Once upon' }).waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.locator('.message.assistant[data-state="stopped"]').waitFor();
    expect(await page.locator('.turn-status').textContent()).toBe('stopped');
    expect((await (await upstream.request(0)).closed).finished).toBe(false);
    expect(await page.locator('.spinner').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Stop' }).count()).toBe(0);
  });

  it('says so when a Stop fails, and lets it be tried again', async () => {
    const { gateway, upstream } = await start([{ steps: [frames.role(), frames.text('Once upon'), { stall: true }] }]);
    const tab = await chromium.open();
    const { page } = tab;
    let refused = 0;
    await page.route('**/v1/runs/*/stop', (route) =>
      refused++ === 0
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ error: { message: 'the store is unavailable', type: 'server_error', param: null, code: null } }),
          })
        : route.continue(),
    );
    await page.goto(`${gateway.url}/console#/chat`);
    await send(page, 'Tell me a long story');
    await page.locator('.answer-text', { hasText: 'Once upon' }).waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.locator('.turn-status', { hasText: 'could not stop: the store is unavailable' }).waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.locator('.message.assistant[data-state="stopped"]').waitFor();
    expect((await (await upstream.request(0)).closed).finished).toBe(false);
    // The refused stop's 503 is the only error the browser logged.
    expect(tab.errors).toEqual([expect.stringContaining('503')]);
    await page.close();
  });

  it('shows reasoning folded, a tool row that starts and ends with its duration, usage and time to first token', async () => {
    const calculation = gate();
    const first = toolCalls({ id: 'call_1', name: 'calculator', fragments: ['{"expression":"6*7"}'] });
    const thinking = [frames.role(), frames.reasoning('The user wants 6*7.'), ...first.steps!];
    const { gateway } = await start([{ steps: thinking }, { steps: [calculation.step, ...answer('It is ', '42.').steps!] }]);
    const page = await openConsole(gateway);
    await send(page, 'What is 6*7?');
    await page.locator('.tool[data-state="done"]', { hasText: 'calculator' }).waitFor();
    expect(await page.locator('.tool .tool-status').textContent()).toMatch(/^done in \d+ ms$/);
    calculation.open();
    await page.locator('.message.assistant[data-state="completed"]').waitFor();
    expect(await page.locator('.answer-text').textContent()).toBe('It is 42.');
    expect(await page.locator('details.reasoning').getAttribute('open')).toBeNull();
    expect(await page.locator('.reasoning-text').textContent()).toBe('The user wants 6*7.');
    expect(await page.locator('.turn-footer').textContent()).toMatch(/^30 tokens in, 7 out · first token \d+ ms · [\d.]+ s in all$/);
    await screenshot(page, 'chat');
  });

  it('shows a refusal as it streams, labelled and apart from the answer, and carries it into the next turn', async () => {
    const rest = gate();
    const { gateway, upstream } = await start([refusing(rest.step), answer('Understood.')]);
    const page = await openConsole(gateway);
    await send(page, 'A recipe for trouble');
    const refusal = page.locator('.message.assistant .refusal');
    await refusal.locator('.refusal-text', { hasText: "I'm sorry," }).waitFor();
    expect(await refusal.locator('.refusal-label').textContent()).toBe('Refusal');
    expect(await page.locator('.turn-status').textContent()).toBe('answering');
    rest.open();
    await page.locator('.message.assistant[data-state="completed"]').waitFor();
    expect(await refusal.locator('.refusal-text').textContent()).toBe(REFUSAL);
    expect(await page.locator('.answer-text').textContent()).toBe('');
    await send(page, 'Why not?');
    await page.locator('.message.assistant[data-state="completed"]').nth(1).waitFor();
    expect(await page.locator('.message.assistant').nth(1).locator('.refusal').isHidden()).toBe(true);
    const next = (await upstream.request(1)).body.messages as { role: string; content: string }[];
    expect(next.slice(-3)).toEqual([
      { role: 'user', content: 'A recipe for trouble' },
      { role: 'assistant', content: REFUSAL },
      { role: 'user', content: 'Why not?' },
    ]);
  });

  it('asks for approval in place; Approve once runs the call and the run goes on', async () => {
    const note = toolCalls({ id: 'call_1', name: 'note', fragments: ['{"text":"buy milk"}'] });
    const { gateway, upstream } = await start([note, answer('Noted.')], NOTE_NEEDS_APPROVAL);
    const page = await openConsole(gateway);
    await send(page, 'Please note: buy milk');
    const prompt = page.locator('.approval', { hasText: 'note' });
    await prompt.getByRole('button', { name: 'Approve once' }).waitFor();
    await screenshot(page, 'approval');
    await prompt.getByRole('button', { name: 'Approve once' }).click();
    await page.locator('.message.assistant[data-state="completed"]').waitFor();
    expect(await prompt.locator('.approval-status').textContent()).toBe('approved once');
    expect(await page.locator('.tool[data-state="done"] code').textContent()).toBe('note');
    expect(await page.locator('.answer-text').textContent()).toBe('Noted.');
    expect(upstream.requests).toHaveLength(2);
  });

  it('steers a working run: the text reaches the next model call, and the conversation goes on with it', async () => {
    const steered = gate();
    const { gateway, upstream } = await start([
      { steps: [frames.role(), frames.text('Writing with a pencil'), steered.step, frames.finish('stop'), frames.done()] },
      answer('Now with ink.'),
      answer('You are welcome.'),
    ]);
    const page = await openConsole(gateway);
    await send(page, 'Write something');
    await page.locator('.answer-text', { hasText: 'pencil' }).waitFor();
    await page.getByLabel('Steer this run').fill('use ink');
    await page.getByRole('button', { name: 'Steer' }).click();
    await page.locator('.steer-status', { hasText: 'queued: it joins the run at its next model call' }).waitFor();
    steered.open();
    await page.locator('.message.assistant[data-state="completed"]').waitFor();
    expect(await page.locator('.steered').textContent()).toBe('steered: use ink');
    const { body } = await upstream.request(1);
    expect((body.messages as { role: string; content: string }[]).at(-1)).toEqual({ role: 'user', content: 'use ink' });
    await send(page, 'Thanks');
    await page.locator('.message.assistant[data-state="completed"]').nth(1).waitFor();
    const next = (await upstream.request(2)).body.messages as { role: string; content: string }[];
    expect(next.slice(-4)).toEqual([
      { role: 'user', content: 'Write something' },
      { role: 'user', content: 'use ink' },
      { role: 'assistant', content: 'Writing with a pencilNow with ink.' },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it('keeps the runs table live: a new run appears, and its row changes when it is stopped', async () => {
    const { gateway } = await start([{ steps: [frames.role(), frames.text('Working'), { stall: true }] }]);
    const page = await openConsole(gateway, '#/runs');
    await page.getByText('No runs yet.').waitFor();
    const id = await createRun(gateway.url, 'Work');
    const row = page.locator(`tr[data-run-id="${id}"]`);
    await row.locator('.status', { hasText: 'running' }).waitFor();
    await screenshot(page, 'runs');
    await post(`${gateway.url}/v1/runs/${id}/stop`);
    await row.locator('.status', { hasText: 'cancelled' }).waitFor();
    expect(await row.locator('td').allTextContents()).toEqual([id, 'cancelled', 'rxgate-agent', expect.stringMatching(/^\d+ s$/), '—']);
  });

  it('drops a list of runs that answers after the status filter changed: no row of the old filter joins the new one', async () => {
    const { gateway } = await start([answer('Done.'), { steps: [frames.role(), frames.text('Working'), { stall: true }] }]);
    const done = await createRun(gateway.url, 'Finish');
    await (await followRun(gateway.url, done)).until('run.completed');
    const working = await createRun(gateway.url, 'Work');
    const events = await followRun(gateway.url, working);
    await events.until('message.delta');
    events.leave();
    const tab = await chromium.open();
    opened.push(tab);
    const { page } = tab;
    // The first list of each filter is held until the test lets it go.
    const firsts = new Map<string, (route: Route) => void>();
    const held = (status: string) => new Promise<Route>((resolve) => firsts.set(status, resolve));
    const [all, completed] = [held(''), held('completed')];
    await page.route(
      (url) => url.pathname === '/v1/runs',
      async (route) => {
        const status = new URL(route.request().url()).searchParams.get('status') ?? '';
        const hold = firsts.get(status);
        firsts.delete(status);
        if (hold) hold(route);
        else await route.continue();
      },
    );
    await page.goto(`${gateway.url}/console#/runs`);
    const stale = await all;
    await page.getByLabel('Status').selectOption('completed');
    const fresh = await completed;
    // The list of every run answers once the filter has changed, before the list of the completed ones.
    const staleFinished = page.waitForEvent('requestfinished', (request) => request === stale.request());
    await stale.continue();
    await staleFinished;
    await fresh.continue();
    await page.locator(`tr[data-run-id="${done}"]`).waitFor();
    expect(await page.locator('tr[data-run-id]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-run-id')))).toEqual([done]);
  });

  it('follows a run live, and after a reload resumes its timeline with Last-Event-ID, without gaps or duplicates', async () => {
    const more = gate();
    const { gateway } = await start([
      {
        steps: [
          frames.role(),
          frames.text('one '),
          frames.text('two '),
          more.step,
          frames.text('three '),
          frames.text('four'),
          frames.finish('stop'),
          frames.usage(5, 4),
          frames.done(),
        ],
      },
    ]);
    const id = await createRun(gateway.url, 'Count');
    const page = await openConsole(gateway, `#/runs/${id}`);
    await page.locator('.event-text', { hasText: 'one two' }).waitFor();
    const resumedFrom: (string | undefined)[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith(`/v1/runs/${id}/events`)) resumedFrom.push(request.headers()['last-event-id']);
    });
    await page.reload();
    await page.locator('.event-text', { hasText: 'one two' }).waitFor();
    more.open();
    await page.locator('[data-type="run.completed"]').waitFor();
    await screenshot(page, 'timeline');
    expect(resumedFrom).toEqual(['1']);
    expect(await page.locator('.event-text').textContent()).toBe('one two three four');
    const seqs = await page.locator('[data-seq]').evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('data-seq'))));
    expect(seqs).toEqual([0, 1, 2, 3, 4]);
    expect(await page.locator('[data-type="run.completed"]').textContent()).toBe('run.completed 9 tokens');
  });

  it('shows a refusal in the timeline, labelled, as it streams, after a reload, and replayed in a tab that kept nothing', async () => {
    const rest = gate();
    const { gateway } = await start([refusing(rest.step)]);
    const id = await createRun(gateway.url, 'A recipe for trouble');
    const page = await openConsole(gateway, `#/runs/${id}`);
    const refusal = page.locator('.event-text.refusal');
    await refusal.filter({ hasText: "I'm sorry," }).waitFor();
    expect(await refusal.locator('.refusal-label').textContent()).toBe('Refusal');
    await page.reload();
    await refusal.filter({ hasText: "I'm sorry," }).waitFor();
    rest.open();
    await page.locator('[data-type="run.completed"]').waitFor();
    expect(await refusal.textContent()).toBe(`Refusal ${REFUSAL}`);
    expect(await page.locator('.event-text:not(.refusal)').count()).toBe(0);
    const seqs = await page.locator('[data-seq]').evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('data-seq'))));
    expect(seqs).toEqual([0, 1, 2]);

    const fresh = await openConsole(gateway, `#/runs/${id}`);
    await fresh.locator('[data-type="run.completed"]').waitFor();
    expect(await fresh.locator('.event-text.refusal').textContent()).toBe(`Refusal ${REFUSAL}`);
  });

  it('says so while the server fails to give a run its events, and follows it again once it recovers, in the timeline and in the chat', async () => {
    const { gateway } = await start([answer('All done.'), answer('Hello.')]);
    const tab = await chromium.open();
    const { page } = tab;
    let failing = true;
    await page.route('**/v1/runs/*/events', (route) =>
      failing
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ error: { message: 'the store is unavailable', type: 'server_error', param: null, code: null } }),
          })
        : route.continue(),
    );
    const id = await createRun(gateway.url, 'Finish');
    await page.goto(`${gateway.url}/console#/runs/${id}`);
    const alert = page.getByRole('alert');
    await alert.filter({ hasText: "could not read the run's events: the store is unavailable; trying again" }).waitFor();
    failing = false;
    await page.locator('[data-type="run.completed"]').waitFor();
    expect(await alert.isHidden()).toBe(true);

    failing = true;
    await page.goto(`${gateway.url}/console#/chat`);
    await send(page, 'Hi');
    await page.locator('.turn-status', { hasText: "could not read the run's events: the store is unavailable; trying again" }).waitFor();
    failing = false;
    await page.locator('.message.assistant[data-state="completed"]').waitFor();
    expect(await page.locator('.answer-text').textContent()).toBe('Hello.');
    // The refused event streams' 503s are the only errors the browser logged.
    expect(tab.errors).toEqual(tab.errors.map(() => expect.stringContaining('503')));
    await page.close();
  });

  it('reloads the timeline of a run that has ended from what the tab kept, without following its events again', async () => {
    const { gateway } = await start([answer('All done.')]);
    const id = await createRun(gateway.url, 'Finish');
    const page = await openConsole(gateway, `#/runs/${id}`);
    await page.locator('[data-type="run.completed"]').waitFor();
    let followed = 0;
    page.on('request', (request) => {
      if (request.url().endsWith(`/v1/runs/${id}/events`)) followed += 1;
    });
    await page.reload();
    await page.locator('[data-type="run.completed"]').waitFor();
    // The follower would be opened again each second (its reconnect pause) for as long as the view is open.
    await page.waitForTimeout(2500);
    expect(followed).toBe(0);
    expect(await page.locator('.event-text').textContent()).toBe('All done.');
    expect(await page.locator('h2 .status').textContent()).toBe('completed');
  });

  it('answers an approval and stops a run from its timeline, its status following', async () => {
    const note = toolCalls({ id: 'call_1', name: 'note', fragments: ['{"text":"buy milk"}'] });
    const { gateway, upstream } = await start(
      [note, { steps: [frames.role(), frames.text('Noted, and'), { stall: true }] }],
      NOTE_NEEDS_APPROVAL,
    );
    const id = await createRun(gateway.url, 'Please note: buy milk');
    const events = await followRun(gateway.url, id);
    await events.until('approval.required');
    events.leave();
    const page = await openConsole(gateway, `#/runs/${id}`);
    const status = page.locator('h2 .status');
    await page.getByRole('button', { name: 'Always' }).waitFor();
    expect(await status.textContent()).toBe('waiting_for_approval');
    await page.getByRole('button', { name: 'Always' }).click();
    await page.locator('[data-type="approval.resolved"]', { hasText: 'note: always' }).waitFor();
    await page.locator('.tool[data-state="done"]', { hasText: 'note' }).waitFor();
    await page.locator('.event-text', { hasText: 'Noted, and' }).waitFor();
    expect(await status.textContent()).toBe('running');
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.locator('[data-type="run.cancelled"]').waitFor();
    expect(await status.textContent()).toBe('cancelled');
    expect((await (await upstream.request(1)).closed).finished).toBe(false);
    expect(await page.locator('.spinner').count()).toBe(0);
  });

  it('keeps what the run said of an approval when the reply to the click comes after it and says less', async () => {
    const note = toolCalls({ id: 'call_1', name: 'note', fragments: ['{"text":"buy milk"}'] });
    const { gateway } = await start([note, answer('Noted.')], NOTE_NEEDS_APPROVAL);
    const id = await createRun(gateway.url, 'Please note: buy milk');
    const tab = await chromium.open();
    opened.push(tab);
    const { page } = tab;
    // approvalReplyRead resolves once the page has read the reply to the click and run what follows it.
    await page.addInitScript(() => {
      const json = Response.prototype.json;
      let read!: () => void;
      Object.assign(globalThis, { approvalReplyRead: new Promise<void>((resolve) => (read = resolve)) });
      Object.defineProperty(Response.prototype, 'json', {
        value(this: Response) {
          const body = json.call(this) as Promise<unknown>;
          if (this.url.endsWith('/approval')) void body.finally(() => setTimeout(read));
          return body;
        },
      });
    });
    // The reply comes after the run's approval.resolved, as the 202 of an answer handed to another instance.
    await page.route('**/v1/runs/*/approval', async (route) => {
      const { approval_id: approvalId } = route.request().postDataJSON() as { approval_id: string };
      expect((await answerApproval(gateway.url, id, { approval_id: approvalId, choice: 'once' })).status).toBe(200);
      await page.locator('.approval[data-state="once"]').waitFor();
      await route.fulfill({
        status: 202,
        contentType: 'application/json',
        body: JSON.stringify({ object: 'run.approval', run_id: id, approval_id: approvalId, status: 'sent' }),
      });
    });
    await page.goto(`${gateway.url}/console#/runs/${id}`);
    await page.getByRole('button', { name: 'Approve once' }).click();
    await page.evaluate(() => (globalThis as unknown as { approvalReplyRead: Promise<void> }).approvalReplyRead);
    expect(await page.locator('.approval .approval-status').textContent()).toBe('approved once');
  });

  it('takes the answer buttons off an approval whose run ended unanswered, in the chat and in the timeline', async () => {
    const note = toolCalls({ id: 'call_1', name: 'note', fragments: ['{"text":"buy milk"}'] });
    const { gateway } = await start([note, note], NOTE_NEEDS_APPROVAL);
    const page = await openConsole(gateway);
    await send(page, 'Please note: buy milk');
    await page.getByRole('button', { name: 'Approve once' }).waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.locator('.message.assistant[data-state="stopped"]').waitFor();
    expect(await page.getByRole('button', { name: 'Approve once' }).count()).toBe(0);
    expect(await page.locator('.approval .approval-status').textContent()).toBe('not answered: the run ended');

    const id = await createRun(gateway.url, 'Please note: buy milk');
    await page.goto(`${gateway.url}/console#/runs/${id}`);
    await page.getByRole('button', { name: 'Approve once' }).waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.locator('[data-type="run.cancelled"]').waitFor();
    expect(await page.getByRole('button', { name: 'Approve once' }).count()).toBe(0);
    expect(await page.locator('.approval').getAttribute('data-state')).toBe('unanswered');
  });

  it('shows a timeline kept in the tab only to a key that may see its run: signed out, the next key sees none of it', async () => {
    const { gateway } = await gateways.start([answer('Secret plans of team A.')], {}, {}, { keys: () => teamKeys() });
    const response = await post(`${gateway.url}/v1/runs`, { input: 'plans' }, as('team-a'));
    const { run_id: id } = (await response.json()) as { run_id: string };
    const tab = await chromium.open();
    await tab.page.goto(`${gateway.url}/console#/runs/${id}`);
    const signInAs = async (key: string) => {
      await tab.page.getByLabel('API key').fill(key);
      await tab.page.getByRole('button', { name: 'Sign in' }).click();
    };
    await signInAs(keyOf('team-a'));
    await tab.page.locator('[data-type="run.completed"]').waitFor();
    expect(await tab.page.locator('.event-text').textContent()).toBe('Secret plans of team A.');

    await tab.page.getByRole('button', { name: 'Sign out' }).click();
    await signInAs(keyOf('team-b'));
    await tab.page
      .getByRole('alert')
      .filter({ hasText: `run '${id}' not found` })
      .waitFor();
    expect(await tab.page.locator('#timeline').textContent()).not.toContain('Secret plans');
    expect(await tab.page.locator('.timeline li').count()).toBe(0);
    // Team B's 404 is the only error the browser logged.
    expect(tab.errors).toEqual([expect.stringContaining('404')]);
    await tab.page.close();
  });

  it('is usable at 375 px and by keyboard alone', async () => {
    const { gateway } = await start([answer('Small screens work.')]);
    const page = await openConsole(gateway, '#/chat', 375);
    await page.getByLabel('Message').focus();
    await page.keyboard.type('Hello');
    await page.keyboard.press('Enter');
    await page.locator('.message.assistant[data-state="completed"]').waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await screenshot(page, 'chat-375');
  });
});
