import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';

/** Where the README's screenshots are kept; `npm run screenshots` writes them there, other runs to a temporary folder. */
const COMMITTED = resolve(import.meta.dirname, '../../docs/console');
const folder = process.env.RXGATE_SCREENSHOTS === '1' ? COMMITTED : join(tmpdir(), 'rxgate-console-screenshots');

/** Screenshots the page as `<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `${name}.png`), fullPage: true, animations: 'disabled', caret: 'hide' });
}
