// Metrics with WORKERS=N (docs/decisions.md#metrics): Prometheus scrapes one port, and whichever
// worker takes the scrape asks the cluster's primary, which gathers every worker's registry over
// IPC (prom-client's AggregatorRegistry) and answers with their combination: counters and
// histograms summed, pool gauges summed, the gauges read from the database the largest of the
// workers' (each reads the same rows).
import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

const ASK = 'medledger:metrics-ask';
const ANSWER = 'medledger:metrics-answer';
/** prom-client's primary gives up on a silent worker after 5 s; the asking worker a little later. */
const ANSWER_TIMEOUT_MS = 6_000;

interface Answer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

/** In the primary: answer the workers' requests for the whole cluster's metrics. */
export function answerClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== ASK) return;
    const reply = (answer: Omit<Answer, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, ...answer });
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (err: Error) => reply({ error: err.message }),
    );
  });
}

/** In a worker: the registry the primary gathers (prom-client answers its requests from now on). */
export function shareWithPrimary(registry: Registry): void {
  AggregatorRegistry.setRegistries([registry]);
  new AggregatorRegistry(); // installs the worker's side of prom-client's protocol
}

let asked = 0;

/** In a worker: the whole cluster's metrics, from the primary. */
export function clusterMetrics(): Promise<string> {
  const id = ++asked;
  return new Promise((resolve, reject) => {
    const onMessage = (message: Answer) => {
      if (message?.type !== ANSWER || message.id !== id) return;
      finish();
      if (message.text !== undefined) resolve(message.text);
      else reject(new Error(`the cluster's metrics could not be gathered: ${message.error}`));
    };
    const timer = setTimeout(() => {
      finish();
      reject(new Error("the cluster's primary did not answer with the metrics"));
    }, ANSWER_TIMEOUT_MS);
    const finish = () => {
      clearTimeout(timer);
      process.off('message', onMessage);
    };
    process.on('message', onMessage);
    process.send!({ type: ASK, id });
  });
}
