import { Observable, type MonoTypeOperatorFunction, type Subscriber } from 'rxjs';
import { Stage } from '../rx/Stage.js';

/** The state of one `failOverBeforeCommit` subscription: one object where a defer, a tap and a catchError held two subscribers and their closures. */
class CommitWatch<T> extends Stage<T> {
  private committed = false;
  /** A recovery from a failure that came while the failed stream was still being subscribed to. */
  private recovery$: Observable<T> | undefined;

  constructor(
    destination: Subscriber<T>,
    private readonly commits: (value: T) => boolean,
    private readonly recover$: (error: unknown) => Observable<T>,
  ) {
    super(destination);
  }

  protected override onSubscribed(): void {
    if (this.recovery$) this.recover(this.recovery$);
  }

  protected onNext(value: T): void {
    if (!this.committed) this.committed = this.commits(value);
    this.destination.next(value);
  }

  protected override onError(error: unknown): void {
    if (this.committed) {
      this.destination.error(error);
      return;
    }
    let recovery$: Observable<T>;
    // As in `catchError`: a recovery that throws fails the stream with what it threw.
    try {
      recovery$ = this.recover$(error);
    } catch (failure) {
      this.destination.error(failure);
      return;
    }
    if (this.subscribed) this.recover(recovery$);
    else this.recovery$ = recovery$;
  }

  /**
   * As in `catchError`: the failed stream is torn down (its request aborted) before the recovery
   * starts, which is subscribed with the outer subscriber itself, so that its unsubscription tears
   * the recovery down.
   */
  private recover(recovery$: Observable<T>): void {
    this.unsubscribe();
    recovery$.subscribe(this.destination);
  }
}

/**
 * The commit point: until a value that `commits` passes, an error is handed to `recover$`, whose
 * stream takes the failed one's place; after it, the error goes on as it is. A client that has
 * seen content is never given a second answer glued to the first.
 *
 * ```
 * source:    --r--#                 r = a value that does not commit (a role chunk), c = one that does
 * recover:        ---r--c--|
 * result:    --r-----r--c--|
 *
 * source:    --r--c--#
 * result:    --r--c--#
 * ```
 */
export function failOverBeforeCommit<T>(
  commits: (value: T) => boolean,
  recover$: (error: unknown) => Observable<T>,
): MonoTypeOperatorFunction<T> {
  return (source$) => new Observable<T>((destination) => new CommitWatch(destination, commits, recover$).subscribeTo(source$));
}
