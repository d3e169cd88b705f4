// Records N results into an existing run, for the concurrency test in store.test.ts;
// runs as a child process (argv) or as a worker thread (workerData).
import { workerData } from 'node:worker_threads';
import { openResults } from './store';

const [dir, runId, prefix, n] = (workerData as string[] | null) ?? process.argv.slice(2);
const db = openResults(dir!);
for (let i = 0; i < Number(n); i++) db.record(runId!, { caseId: `${prefix}-${i}`, status: 'ok', score: i % 2, metrics: { i } });
db.close();
