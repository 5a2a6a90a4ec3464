import { defer, filter, first, map, of, Subject, type Observable } from 'rxjs';
import type { ApprovalAnswer } from '../approval.js';

/** The tools a person answered `always` for in one run, each with the answer that said so. */
export class ApprovedAlways {
  readonly #answers = new Map<string, ApprovalAnswer>();
  readonly #added = new Subject<string>();

  has(tool: string): boolean {
    return this.#answers.has(tool);
  }

  /** Records `answer` (an `always`) for `tool`; the calls of that tool that wait for it go on. */
  add(tool: string, answer: ApprovalAnswer): void {
    if (this.#answers.has(tool)) return;
    this.#answers.set(tool, answer);
    this.#added.next(tool);
  }

  /** The `always` answer for `tool`, once there is one (at once if there is already). */
  answerFor$(tool: string): Observable<ApprovalAnswer> {
    return defer(() => {
      const given = this.#answers.get(tool);
      return given
        ? of(given)
        : this.#added.pipe(
            filter((added) => added === tool),
            first(),
            map(() => this.#answers.get(tool)!),
          );
    });
  }
}
