import { createHash } from 'node:crypto';
import type { KeyEntry } from '../../src/http/keys/keysFile.js';
import { indexKeys, type KnownKeys } from '../../src/http/keys/resolveKey.js';

/** The keys of a team test: the key of each id is `rxg_test_<id>` (never in the file: its digest is). */
export const keyOf = (id: string): string => `rxg_test_${id}`;

export const entryOf = (id: string, fields: Partial<Omit<KeyEntry, 'id' | 'sha256'>> = {}): KeyEntry => ({
  id,
  sha256: createHash('sha256').update(keyOf(id)).digest('hex'),
  ...fields,
});

/** `team-a`, `team-b` and the admin `ops`, with `extra` entries besides. */
export const teamKeys = (...extra: KeyEntry[]): KnownKeys =>
  indexKeys([entryOf('team-a'), entryOf('team-b'), entryOf('ops', { admin: true }), ...extra]);

/** The headers of a request made with `id`'s key. */
export const as = (id: string): Record<string, string> => ({ authorization: `Bearer ${keyOf(id)}`, 'content-type': 'application/json' });
