// How long each statement takes, for the metrics (features/metrics): both drivers tell one
// listener of every query they run. It is set after the database is open (as onPoolError is), and
// without one nothing is timed.
import { ArrayRowsClient } from './array-rows-query.js';

/** Told the seconds each statement took, whether it succeeded or failed. */
export type QueryListener = (seconds: number) => void;

/** Holds the listener; the drivers time each query through it. */
export class QueryTiming {
  listener: QueryListener | undefined;

  /** `result` as it was, the listener told when it settles. */
  timePromise<T>(start: bigint, result: Promise<T>): Promise<T> {
    const listener = this.listener;
    if (!listener) return result;
    return result.finally(() => listener(secondsSince(start)));
  }

  /** A node-style callback that first tells the listener how long the query took. */
  timeCallback<A extends unknown[]>(start: bigint, callback: (...args: A) => void): (...args: A) => void {
    const listener = this.listener;
    if (!listener) return callback;
    return (...args: A) => {
      listener(secondsSince(start));
      callback(...args);
    };
  }
}

type Callback = (...args: unknown[]) => void;

const secondsSince = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

/** pg.Pool's `Client` for this pool: ArrayRowsClient, each query timed through `timing`. */
export function timedPgClient(timing: QueryTiming): typeof ArrayRowsClient {
  return class TimedClient extends ArrayRowsClient {
    // pg's overloads: (config, values?, callback?) and (config, callback), as Pool and Drizzle call it.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override query(config: any, values?: any, callback?: any): any {
      if (!timing.listener) return super.query(config, values, callback);
      const start = process.hrtime.bigint();
      if (typeof callback === 'function')
        return super.query(config, values, timing.timeCallback(start, callback as Callback));
      if (typeof values === 'function')
        return super.query(config, timing.timeCallback(start, values as Callback));
      const result: unknown = super.query(config, values);
      // A Submittable (a cursor, a stream) is not a promise and is not timed.
      return result instanceof Promise ? timing.timePromise(start, result) : result;
    }
  };
}
