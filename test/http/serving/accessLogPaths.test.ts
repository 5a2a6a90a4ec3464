import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { finish, say, ScriptedAgent } from '../../support/scriptedAgent.js';
import { startApp } from '../../support/startApp.js';
import { watchedLogger } from '../../support/watchedLogger.js';

// The access log names the path the client asked for, mount prefix included: Express strips
// `/v1` from `req.path` inside the router, so a log that read it would lose it.

describe('the access log path', () => {
  it('keeps /v1 for a matched route and for a 404, and leaves the query string out', async () => {
    const log = watchedLogger();
    const app = await startApp(new ScriptedAgent([say('x'), finish()]), loadConfig({}), { logger: log.logger });
    try {
      const models = await fetch(`${app.url}/v1/models?verbose=1`);
      await models.text();
      const matched = await log.next((line) => line.msg === 'request');
      const missing = await fetch(`${app.url}/v1/no-such-route?x=1`);
      await missing.text();
      const unmatched = await log.next((line) => line.msg === 'request' && line.status === 404);

      expect(models.status).toBe(200);
      expect(matched).toMatchObject({ method: 'GET', path: '/v1/models', status: 200 });
      expect(missing.status).toBe(404);
      expect(unmatched).toMatchObject({ method: 'GET', path: '/v1/no-such-route', status: 404 });
    } finally {
      await app.close();
    }
  });
});
