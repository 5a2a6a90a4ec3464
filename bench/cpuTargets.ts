import type { CpuTarget } from './cpuPerRequest.js';
import { launchGateway } from './launchGateway.js';
import { launchPortkey } from './launchPortkey.js';

/** The CPU figure's targets, each in its own process: the pipe floor, the bare relay, rxgate, and Portkey (non-streaming). */
export async function cpuTargets(upstreamBaseUrl: string): Promise<{ targets: CpuTarget[]; stop(): Promise<void> }> {
  const gateways = await Promise.all((['pipe', 'bare', 'rxgate'] as const).map((kind) => launchGateway(kind, upstreamBaseUrl)));
  const portkey = await launchPortkey(upstreamBaseUrl);
  const targets: CpuTarget[] = [
    ...gateways.map((gateway) => ({
      name: gateway.kind,
      origin: gateway.origin,
      cpuMicros: async () => (await gateway.stats()).cpuMicros,
    })),
    { name: 'portkey', origin: portkey.origin, headers: portkey.headers, cpuMicros: () => portkey.cpuMicros(), modes: ['non-streaming'] },
  ];
  return {
    targets,
    async stop() {
      for (const gateway of gateways) await gateway.stop();
      await portkey.stop();
    },
  };
}
