// The queue as a door: a signed job's fields pass the worker's host policy as a
// page's request does. The run id is one folder name, the suite a built-in one,
// the model (and judge) a spec checked under the worker's rule — scripts only from
// the worker's scripts folder (none unless `worker --scripts DIR`), local models
// only from its models folder, and a key only to the server it is for (the
// environment's SKILLBRIDGE_API_KEY only to SKILLBRIDGE_API_BASE_URL or a base URL
// given with `worker --allow-key-for`). A job naming anything else is refused.
import { createHash } from 'node:crypto';
import { suiteFromText } from '../../eval/suites/file/index';
import type { AdmittedJob } from '../../eval/scale/queue-worker';
import type { CaseJob } from '../../eval/scale/queue-protocol';
import type { HostPolicy } from './host-policy';

/** A suite file's text a job carried, built into a suite as data; its id must be the one the job names. */
function textSuite(id: string, file: { name: string; text: string }): AdmittedJob['suite'] {
  const suite = suiteFromText(file.text, file.name);
  if (suite.id !== id) throw new Error(`job.suite: the suite file's id is "${suite.id}", the job names "${id}"`);
  return { kind: 'text', id, version: createHash('sha256').update(file.text).digest('hex').slice(0, 16), suite };
}

/** The worker's check of a job, field by field; throws an error naming the field to refuse it. */
export function queueDoor(policy: HostPolicy): (job: CaseJob) => Promise<AdmittedJob> {
  return async (job) => {
    const runId = policy.runId(job.runId, 'job.runId');
    const named = job.suiteFile ? textSuite(job.suite, job.suiteFile) : policy.suite(job.suite, 'job.suite');
    if (named.kind === 'file') throw new Error('job.suite: a queued run names a built-in suite or carries its suite file');
    const suite: AdmittedJob['suite'] = named;
    const model = await policy.evalModel(job.model, 'job.model');
    const judge = job.judge !== undefined ? await policy.evalModel(job.judge, 'job.judge') : undefined;
    const { judge: _judge, suiteFile: _file, ...rest } = job;
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
