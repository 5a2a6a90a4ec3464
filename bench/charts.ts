import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { Report } from './Report.js';

/** Renders a Vega-Lite spec to SVG in Node (Vega's headless view, no browser, no canvas). */
async function toSvg(spec: TopLevelSpec): Promise<string> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return `${svg}\n`;
}

const base = { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', width: 520, height: 300, background: 'white' } as const;

const colour = {
  field: 'target',
  type: 'nominal',
  title: null,
  legend: { orient: 'top' },
  scale: { scheme: 'tableau10' },
} as const;

/** The added latency (median and p99) against concurrent clients, rxgate and the floors. */
export function latencyChart(report: Report): TopLevelSpec {
  const values = (report.loadedLatency ?? [])
    .filter((row) => row.target !== 'upstream directly')
    .flatMap((row) => [
      { clients: row.clients, target: row.target, stat: 'median', ms: row.addedMedian },
      { clients: row.clients, target: row.target, stat: 'p99', ms: row.addedP99 },
    ]);
  return {
    ...base,
    title: 'Added latency against concurrent clients (streaming, 8 deltas)',
    data: { values },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'clients', type: 'quantitative', scale: { type: 'log', base: 2 }, title: 'concurrent clients' },
      y: { field: 'ms', type: 'quantitative', title: 'added ms (vs the upstream reached directly)' },
      color: colour,
      strokeDash: { field: 'stat', type: 'nominal', title: null, legend: { orient: 'top' } },
    },
  } as TopLevelSpec;
}

/** Heap and RSS per open stream against open streams, rxgate and the floors. */
export function memoryChart(report: Report): TopLevelSpec {
  const values = report.concurrency.flatMap((row) => [
    { streams: row.streams, target: row.target, kind: 'heap', kib: row.heapPerStream / 1024 },
    { streams: row.streams, target: row.target, kind: 'RSS', kib: row.rssPerStream / 1024 },
  ]);
  return {
    ...base,
    title: 'Memory per open stream against streams open at once',
    data: { values },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'streams', type: 'quantitative', scale: { type: 'log' }, title: 'streams open at once' },
      y: { field: 'kib', type: 'quantitative', title: 'KiB per open stream' },
      color: colour,
      strokeDash: { field: 'kind', type: 'nominal', title: null, legend: { orient: 'top' } },
    },
  } as TopLevelSpec;
}

/** CPU time per request, by target, streaming and not. */
export function cpuChart(report: Report): TopLevelSpec {
  const values = (report.cpu ?? []).map((row) => ({ target: row.target, mode: row.mode, us: row.cpuMicrosPerRequest }));
  return {
    ...base,
    title: 'Gateway CPU time per request (16 clients, 8 deltas)',
    data: { values },
    mark: 'bar',
    encoding: {
      x: { field: 'target', type: 'nominal', title: null, sort: ['pipe', 'bare', 'rxgate', 'portkey'] },
      xOffset: { field: 'mode', type: 'nominal' },
      y: { field: 'us', type: 'quantitative', title: 'CPU µs per request' },
      color: { field: 'mode', type: 'nominal', title: null, legend: { orient: 'top' }, scale: { scheme: 'tableau10' } },
    },
  } as TopLevelSpec;
}

/** Beside BENCHMARKS.md, which shows them. */
export const CHARTS = { latency: 'BENCHMARKS-latency.svg', memory: 'BENCHMARKS-memory.svg', cpu: 'BENCHMARKS-cpu.svg' } as const;

/** Writes the charts into `dir`, the folder of the BENCHMARKS.md that links them. */
export async function writeCharts(report: Report, dir: string): Promise<void> {
  await writeFile(join(dir, CHARTS.latency), await toSvg(latencyChart(report)));
  await writeFile(join(dir, CHARTS.memory), await toSvg(memoryChart(report)));
  if (report.cpu) await writeFile(join(dir, CHARTS.cpu), await toSvg(cpuChart(report)));
}
