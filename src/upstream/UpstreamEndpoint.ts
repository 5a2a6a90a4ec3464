/**
 * An upstream's chat completions URL, split once into the origin and path undici's `dispatch`
 * takes: its top-level `request(url)` parses the URL again on every call.
 */
export class UpstreamEndpoint {
  readonly origin: string;
  readonly path: string;

  constructor(readonly url: string) {
    const parsed = new URL(url);
    this.origin = parsed.origin;
    this.path = `${parsed.pathname}${parsed.search}`;
  }
}
