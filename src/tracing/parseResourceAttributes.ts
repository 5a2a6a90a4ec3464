/** `OTEL_RESOURCE_ATTRIBUTES` (`key=value,key2=value2`, values percent-encoded as the specification says) as attributes. */
export function parseResourceAttributes(value: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const pair of value.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    attributes[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return attributes;
}
