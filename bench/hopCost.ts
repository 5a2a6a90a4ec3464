import { Observable, type Observer, type Subscriber } from 'rxjs';
import { Stage as StageBase } from '../src/rx/Stage.js';

// `npx tsx bench/hopCost.ts`: what a value costs to cross a chain of 16 stages of 16 different
// classes, as a delta crosses rxgate's, made two ways. As rxgate's stages were made before
// `Stage` (src/rx): an Observer object each, which RxJS wraps in a SafeSubscriber and a
// ConsumerObserver, whose one call into every stage's `next` sees every stage's class (a
// megamorphic call V8 cannot inline). And as they are made now, subclasses of `Stage`: an
// Observer that is also a Subscription, which RxJS takes as it is, so that each stage calls the
// next one's `next` directly, from a call site that sees one class.

const STAGES = 16;
const VALUES = 2_000_000;
const SUBSCRIPTIONS = 20_000;

type Stage = new (downstream: Observer<number>) => Observer<number>;

/** A class of its own for each stage (its own source text, so V8 keeps feedback for each apart). */
function stageClass(kind: 'observer' | 'subscription', index: number): Stage {
  const body =
    kind === 'observer'
      ? `return class Observer${index} {
          constructor(downstream) { this.downstream = downstream; this.seen${index} = 0; }
          next(value) { this.seen${index}++; this.downstream.next(value); }
          error(error) { this.downstream.error(error); }
          complete() { this.downstream.complete(); }
        }`
      : `return class Stage${index} extends StageBase {
          constructor(destination) { super(destination); this.seen${index} = 0; }
          onNext(value) { this.seen${index}++; this.destination.next(value); }
        }`;
  return new Function('StageBase', body)(StageBase) as Stage;
}

function measure(kind: 'observer' | 'subscription'): { subscribeMicros: number; nextNanos: number } {
  let emit: Subscriber<number> | undefined;
  let chain$ = new Observable<number>((subscriber) => void (emit = subscriber));
  for (let index = 0; index < STAGES; index++) {
    const Stage = stageClass(kind, index);
    const upstream$ = chain$;
    chain$ = new Observable<number>((subscriber) => {
      const stage = new Stage(subscriber);
      return stage instanceof StageBase ? stage.subscribeTo(upstream$) : upstream$.subscribe(stage);
    });
  }
  let received = 0;
  const count = () => void received++;
  let started = performance.now();
  const subscriptions = Array.from({ length: SUBSCRIPTIONS }, () => chain$.subscribe(count));
  const subscribeMicros = ((performance.now() - started) / SUBSCRIPTIONS) * 1000;
  for (const subscription of subscriptions) subscription.unsubscribe();
  const subscription = chain$.subscribe(count);
  started = performance.now();
  for (let value = 0; value < VALUES; value++) emit!.next(value);
  const nextNanos = ((performance.now() - started) / VALUES) * 1e6;
  subscription.unsubscribe();
  if (received !== VALUES) throw new Error(`${kind}: ${received} of ${VALUES} values arrived`);
  return { subscribeMicros, nextNanos };
}

// Twice each, alternating: the first round of each warms V8 up.
for (const kind of ['observer', 'subscription', 'observer', 'subscription'] as const) {
  const { subscribeMicros, nextNanos } = measure(kind);
  process.stdout.write(`${kind}: ${subscribeMicros.toFixed(1)} µs to subscribe the chain, ${nextNanos.toFixed(0)} ns a value through it\n`);
}
