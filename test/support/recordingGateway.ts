import type { ChildProcess } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import type { SocketClosed } from './scriptedUpstream.js';
import { endlessAnswer, type UpstreamScript } from './scriptedUpstream.js';
import { useLlmGateway } from './startLlmGateway.js';

/**
 * A scripted upstream and the gateway before it (closed after each test), with what reached the
 * gateway: each request's method and URL, an upgrade as `UPGRADE GET /v1/responses`. For the tests
 * that run a real agent client and check which of rxgate's routes it used.
 */
export function useRecordingGateway() {
  const gateways = useLlmGateway();
  return {
    async start(scripts: readonly UpstreamScript[]) {
      const { upstream, gateway } = await gateways.start(scripts);
      const received: string[] = [];
      // Heard before Express, which cuts its mount path off `url`.
      gateway.server.prependListener('request', (req: IncomingMessage) => received.push(`${req.method} ${req.url}`));
      gateway.server.prependListener('upgrade', (req: IncomingMessage) => received.push(`UPGRADE ${req.method} ${req.url}`));
      return { upstream, gateway, received };
    },

    /**
     * Starts a client (`launch`, given the gateway's URL) against an answer that never ends, stops it
     * with SIGINT once its request reached the upstream, and resolves, once the client exited, to how
     * the upstream's socket closed and how many requests it got.
     */
    async interruptMidAnswer(launch: (url: string) => { readonly child: ChildProcess; readonly exited: Promise<unknown> }) {
      const { upstream, gateway } = await this.start([endlessAnswer('more ')]);
      const { child, exited } = launch(gateway.url);
      const request = await upstream.request(0);
      child.kill('SIGINT');
      const closed: SocketClosed = await request.closed;
      await exited;
      return { closed, requests: upstream.requests.length };
    },
  };
}
