import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/** Debian's `chromium` package: `.ci/run` installs it when it is missing. */
export const CHROMIUM = '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

export interface ConsolePage {
  readonly page: Page;
  /** Console errors, uncaught exceptions and Content-Security-Policy violations the page has had. */
  readonly errors: string[];
}

/**
 * A real headless Chromium for the file's tests, with a user data directory of its own that is
 * removed afterwards; `open()` gives a new tab (so new `sessionStorage`) that records its errors.
 */
export function useChromium() {
  let context: BrowserContext | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rxgate-chromium-'));
    context = await chromium.launchPersistentContext(dataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 1024, height: 720 },
    });
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return {
    async open(width = 1024, height = 720): Promise<ConsolePage> {
      const page = await context!.newPage();
      await page.setViewportSize({ width, height });
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      return { page, errors };
    },
  };
}
