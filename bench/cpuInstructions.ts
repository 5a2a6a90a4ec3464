import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Agent } from 'undici';
import { chatBody } from './benchUpstream.js';
import { createClient, timeOne } from './client.js';
import type { CpuMode } from './cpuPerRequest.js';
import type { GatewayKind } from './gateway.js';
import { launchGateway, type Gateway } from './launchGateway.js';
import { launchUpstream } from './launchUpstream.js';

// Instructions per request (issue 26, goal 1), counted by callgrind: `npm run -s bench:instructions`.
// Wall-clock CPU time on a shared machine moves with the load; the instructions a process executes
// do not. Each gateway runs under `valgrind --tool=callgrind`; callgrind dumps (and zeroes) its
// counts on `callgrind_control --dump`, once after the warm-up and once after the measured requests,
// so the second dump holds the measured requests alone.

const CLIENTS = 16;
const REQUESTS = Number(process.env.BENCH_INSTRUCTIONS_REQUESTS ?? 400);
/** Deltas per answer: `BENCH_INSTRUCTIONS_DELTAS=2000` weighs the cost per delta over the cost per request. */
const DELTAS = Number(process.env.BENCH_INSTRUCTIONS_DELTAS ?? 8);
/** `npm run bench:instructions -- rxgate` measures rxgate alone. */
const KINDS = (process.argv.length > 2 ? process.argv.slice(2) : ['pipe', 'rxgate']) as GatewayKind[];
const MODES: readonly CpuMode[] = ['streaming', 'non-streaming'];

interface InstructionRow {
  readonly target: string;
  readonly mode: CpuMode;
  /** On the main thread (JavaScript, the event loop, the system calls it makes). */
  readonly mainThread: number;
  /** On every thread (V8's compilers and garbage collector helpers too). */
  readonly allThreads: number;
}

if (spawnSync('valgrind', ['--version']).error) {
  process.stderr.write('bench:instructions skipped: valgrind is not installed (apt-get install -y valgrind)\n');
  process.exit(0);
}

async function load(client: Agent, origin: string, body: string): Promise<void> {
  let left = REQUESTS;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (left-- > 0) await timeOne(client, origin, body);
    }),
  );
}

/** Instructions in callgrind's dump number `dump` of the files `<prefix>.<dump>-<thread>`: thread 1 and all threads. */
function instructionsIn(dir: string, prefix: string, dump: number): { mainThread: number; allThreads: number } {
  const files = readdirSync(dir).filter((name) => name.startsWith(`${prefix}.${dump}-`));
  let mainThread = 0;
  let allThreads = 0;
  for (const name of files) {
    const total = Number(/^(?:totals|summary): (\d+)/m.exec(readFileSync(join(dir, name), 'utf8'))?.[1] ?? Number.NaN);
    allThreads += total;
    if (name.endsWith('-01')) mainThread = total;
  }
  if (files.length === 0 || !mainThread) throw new Error(`no callgrind dump ${dump} of ${prefix} in ${dir}`);
  return { mainThread, allThreads };
}

async function measure(gateway: Gateway, client: Agent, dir: string, prefix: string): Promise<InstructionRow[]> {
  const rows: InstructionRow[] = [];
  let dumps = 0;
  const dump = async () => {
    await promisify(execFile)('callgrind_control', ['--dump', String(gateway.child.pid)]);
    return ++dumps;
  };
  for (const mode of MODES) {
    const body = chatBody({ deltas: DELTAS, everyMs: 0, text: 'Hello ' }, mode === 'streaming');
    // Unmeasured: compiled code, open upstream connections.
    await load(client, gateway.origin, body);
    await dump();
    await load(client, gateway.origin, body);
    const { mainThread, allThreads } = instructionsIn(dir, prefix, await dump());
    rows.push({ target: gateway.kind, mode, mainThread: mainThread / REQUESTS, allThreads: allThreads / REQUESTS });
  }
  return rows;
}

const dir = mkdtempSync(join(tmpdir(), 'rxgate-callgrind-'));
const upstream = await launchUpstream();
const client = createClient();
const rows: InstructionRow[] = [];
try {
  for (const kind of KINDS) {
    const prefix = `callgrind.${kind}`;
    const gateway = await launchGateway(
      kind,
      upstream.baseUrl,
      {},
      {
        under: [
          'valgrind',
          '--tool=callgrind',
          // V8 writes the code it compiles into memory it then runs: callgrind must notice.
          '--smc-check=all-non-file',
          '--separate-threads=yes',
          '--dump-instr=no',
          `--callgrind-out-file=${join(dir, prefix)}`,
          `--log-file=${join(dir, `${prefix}.log`)}`,
        ],
      },
    );
    try {
      rows.push(...(await measure(gateway, client, dir, prefix)));
    } finally {
      await gateway.stop();
    }
  }
} finally {
  await client.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
}

const million = (n: number) => (n / 1e6).toFixed(3);
const pipeOf = (mode: CpuMode) => rows.find((row) => row.target === 'pipe' && row.mode === mode);
const ratio = (n: number, pipe: number | undefined) => (pipe === undefined ? '' : (n / pipe).toFixed(2)).padStart(6);
process.stdout.write(
  `Instructions per request (millions), ${CLIENTS} clients, ${REQUESTS} measured after ${REQUESTS} warm, ${DELTAS}-delta answers\n`,
);
process.stdout.write('target   mode            main thread  × pipe   all threads  × pipe\n');
for (const row of rows) {
  const pipe = pipeOf(row.mode);
  process.stdout.write(
    `${row.target.padEnd(8)} ${row.mode.padEnd(15)} ${million(row.mainThread).padStart(11)}  ${ratio(row.mainThread, pipe?.mainThread)}  ${million(row.allThreads).padStart(11)}  ${ratio(row.allThreads, pipe?.allThreads)}\n`,
  );
}
