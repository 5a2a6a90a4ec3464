/** A dependency the service needs to take work; resolves to why it is not ready, or undefined. */
export interface ReadinessCheck {
  readonly name: string;
  check(): Promise<string | undefined>;
  /** What `GET /health/ready` shows under `name` whatever the verdict (the MCP servers' states). Default: nothing. */
  details?(): unknown;
}

/** Whether the service can take work now: not shutting down, and every check passes. */
export class Readiness {
  #shuttingDown = false;
  readonly #checks: ReadinessCheck[] = [];

  add(check: ReadinessCheck): void {
    this.#checks.push(check);
  }

  markShuttingDown(): void {
    this.#shuttingDown = true;
  }

  /** Each check's details, by its name, for the checks that have some. */
  details(): Record<string, unknown> {
    return Object.fromEntries(this.#checks.filter((check) => check.details).map((check) => [check.name, check.details!()]));
  }

  async reasons(): Promise<string[]> {
    if (this.#shuttingDown) return ['shutting down'];
    const results = await Promise.all(
      this.#checks.map(async ({ name, check }) => [name, await check().catch((error: Error) => error.message)] as const),
    );
    return results.filter(([, reason]) => reason !== undefined).map(([name, reason]) => `${name}: ${reason}`);
  }
}
