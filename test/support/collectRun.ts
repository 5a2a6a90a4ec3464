import { lastValueFrom, tap, type Observable } from 'rxjs';
import type { AgentEvent } from '../../src/agent/agentEvent.js';

/** Every event of a run that settles, and the error it failed with, if it did. */
export async function collectRun(run$: Observable<AgentEvent>): Promise<{ events: AgentEvent[]; error?: unknown }> {
  const events: AgentEvent[] = [];
  try {
    await lastValueFrom(run$.pipe(tap((event) => events.push(event))), { defaultValue: undefined });
    return { events };
  } catch (error) {
    return { events, error };
  }
}

/** The text of a run's text deltas. */
export function textOf(events: readonly AgentEvent[]): string {
  return events.map((event) => (event.type === 'text' ? event.delta : '')).join('');
}
