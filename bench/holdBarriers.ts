import type { ServerResponse } from 'node:http';

export interface HoldBarriers {
  /** Resolves when the barrier `name` is released: at once if it already was. */
  hold(name: string, res: ServerResponse): Promise<void>;
  /** Releases the barrier `name`, now and for whoever comes to it later; returns how many responses it held that were still open. */
  release(name: string): number;
}

interface Barrier {
  readonly held: Set<ServerResponse>;
  readonly released: Promise<void>;
  open(): void;
}

/** Named barriers where the bench upstream holds streams until the bench lets them go on. */
export function createHoldBarriers(): HoldBarriers {
  const barriers = new Map<string, Barrier>();
  const barrier = (name: string) => {
    let found = barriers.get(name);
    if (!found) {
      let open!: () => void;
      const released = new Promise<void>((resolve) => (open = resolve));
      barriers.set(name, (found = { held: new Set(), released, open }));
    }
    return found;
  };
  return {
    async hold(name, res) {
      const { held, released } = barrier(name);
      held.add(res);
      await released;
      held.delete(res);
    },
    release(name) {
      const found = barrier(name);
      const open = [...found.held].filter((res) => !res.destroyed).length;
      found.open();
      return open;
    },
  };
}
