/**
 * The value of the sample `name` whose labels are exactly `labels` in a Prometheus text
 * exposition (`GET /metrics`), or undefined when there is none; label order does not matter.
 *
 * @example
 * sampleOf(text, 'rxgate_requests_total', { route: '/v1/chat/completions', status: '200', outcome: 'completed' })
 */
export function sampleOf(text: string, name: string, labels: Readonly<Record<string, string>> = {}): number | undefined {
  const wanted = JSON.stringify(Object.entries(labels).sort());
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, label, value]) => [label!, value!]);
    if (JSON.stringify(found.sort()) === wanted) return Number(match[3]);
  }
  return undefined;
}
