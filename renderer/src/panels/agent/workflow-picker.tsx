// The workflow picker: what each workflow does in plain words first, the paper's
// name for it second, and under the picker where it comes from and the stages a
// turn runs (the same names the trace panel nests by).
import type { WorkflowInfo } from '../../../../contract/schemas';

export function workflowLabel(w: Pick<WorkflowInfo, 'title' | 'source'>): string {
  return w.source ? `${w.title} — ${w.source}` : w.title;
}

export function WorkflowPicker({
  workflows,
  value,
  onChange,
}: {
  workflows: WorkflowInfo[];
  value: string;
  onChange: (id: string) => void;
}) {
  return (
    <label>
      Workflow
      <select aria-label="Workflow" value={value} onChange={(e) => onChange(e.target.value)}>
        {(workflows.length ? workflows : [{ id: 'rtw/basic', title: 'rtw/basic' }]).map((w) => (
          <option key={w.id} value={w.id}>
            {workflowLabel(w)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Where the chosen workflow comes from and the stages it runs. */
export function WorkflowAbout({ wf }: { wf: WorkflowInfo }) {
  return (
    <p className="muted workflow-about" data-testid="workflow-about">
      <code>{wf.id}</code> · paper {wf.paper}
      {wf.section ? ` ${wf.section}` : ''}
      {wf.stages?.length ? ` · stages: ${wf.stages.join(' → ')}` : ''}
    </p>
  );
}
