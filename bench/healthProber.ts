import { request } from 'undici';

/**
 * The `/health` prober of figure 7, in a process of its own (`probeHealth` forks it) so that the
 * load generator's own work does not delay it: every `periodMs`, `GET /health` on a new connection
 * to each origin, each origin on its own schedule. Sends `ready`, then, told `stop`, each origin's
 * latencies in ms (NaN: not a 200, or no answer).
 */
const [originsJson, periodMs] = process.argv.slice(2) as [string, string];
const origins = JSON.parse(originsJson) as string[];
let probing = true;

async function probe(origin: string): Promise<number> {
  const started = performance.now();
  try {
    const response = await request(`${origin}/health`, { reset: true, headersTimeout: 30_000, bodyTimeout: 30_000 });
    await response.body.dump();
    return response.statusCode === 200 ? performance.now() - started : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

async function probeEvery(origin: string): Promise<number[]> {
  const latencies: number[] = [];
  while (probing) {
    const next = performance.now() + Number(periodMs);
    latencies.push(await probe(origin));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
  }
  return latencies;
}

const schedules = origins.map(probeEvery);
process.once('message', () => {
  probing = false;
  void Promise.all(schedules).then((latencies) => process.send!({ latencies }, () => process.exit(0)));
});
process.send!('ready');
