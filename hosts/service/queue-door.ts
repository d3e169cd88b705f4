// The queue as a door: a signed job's fields pass the worker's host policy as a
// page's request does. The run id is one folder name, the suite a built-in one,
// the model (and judge) a spec checked under the worker's rule — scripts only from
// the worker's scripts folder (none unless `worker --scripts DIR`), local models
// only from its models folder, and a key only to the server it is for (the
// environment's SKILLBRIDGE_API_KEY only to SKILLBRIDGE_API_BASE_URL or a base URL
// given with `worker --allow-key-for`). A job naming anything else is refused.
import type { AdmittedJob } from '../../eval/scale/queue-worker';
import type { CaseJob } from '../../eval/scale/queue-protocol';
import type { HostPolicy } from './host-policy';

/** The worker's check of a job, field by field; throws an error naming the field to refuse it. */
export function queueDoor(policy: HostPolicy): (job: CaseJob) => Promise<AdmittedJob> {
  return async (job) => {
    const runId = policy.runId(job.runId, 'job.runId');
    const suite = policy.suite(job.suite, 'job.suite');
    if (suite.kind !== 'builtin') throw new Error('job.suite: a queued run names a built-in suite');
    const model = await policy.evalModel(job.model, 'job.model');
    const judge = job.judge !== undefined ? await policy.evalModel(job.judge, 'job.judge') : undefined;
    const { judge: _judge, ...rest } = job;
    return {
      ...rest,
      runId,
      suite,
      model: model.spec,
      env: model.env,
      files: model.files,
      ...(judge ? { judge: { spec: judge.spec, env: judge.env } } : {}),
    };
  };
}
