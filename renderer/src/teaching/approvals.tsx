// Approvals waiting for the person, wherever they are in the app: the Agent
// tab shows a badge, the 3D view a prompt with Approve / Reject, and the
// caption says the robot waits instead of "acting on".
import { useCallback, useEffect, useState } from 'react';
import type { AppApi } from '../../../contract/api';

export interface PendingApproval {
  id: string;
  runId: string;
  callId: string | undefined;
  tool: string;
  args: unknown;
}

export function usePendingApprovals(api: AppApi): {
  pending: PendingApproval[];
  answer: (id: string, decision: 'approve' | 'reject') => Promise<string | null>;
} {
  const [pending, setPending] = useState<PendingApproval[]>([]);
  useEffect(
    () =>
      api.onEvent((e) => {
        if (e.type === 'scene_loaded') setPending([]);
        if (e.type !== 'run') return;
        const ev = e.event;
        if (ev.kind === 'approval_request')
          setPending((p) => [...p, { id: ev.id, runId: ev.runId, callId: ev.callId, tool: ev.tool, args: ev.args }]);
        else if (ev.kind === 'approval') setPending((p) => p.filter((x) => x.callId !== ev.callId));
        else if (ev.kind === 'final' || ev.kind === 'stop') setPending((p) => p.filter((x) => x.runId !== ev.runId));
      }),
    [api],
  );
  const answer = useCallback(
    async (id: string, decision: 'approve' | 'reject'): Promise<string | null> => {
      try {
        const r = await api.answerApproval({ id, decision });
        setPending((p) => p.filter((x) => x.id !== id));
        return r.ok ? null : r.message;
      } catch (e) {
        return e instanceof Error ? e.message : String(e);
      }
    },
    [api],
  );
  return { pending, answer };
}

export function describeCall(tool: string, args: unknown): string {
  const a = args && typeof args === 'object' ? Object.values(args as Record<string, unknown>).filter((v) => typeof v !== 'object') : [];
  return `${tool}(${a.map(String).join(', ')})`;
}

/** The prompt over the 3D view: the call the robot waits on, with the two answers. */
export function ApprovalOverlay({
  pending,
  onAnswer,
  readOnly,
}: {
  pending: PendingApproval;
  onAnswer: (decision: 'approve' | 'reject') => void;
  readOnly: boolean;
}) {
  return (
    <div className="view-approval" role="alertdialog" aria-label="Approval needed" data-testid="view-approval">
      <strong>The robot waits for your approval</strong>
      <code>{describeCall(pending.tool, pending.args)}</code>
      {readOnly ? (
        <span className="muted">(watching read-only)</span>
      ) : (
        <div className="row">
          <button type="button" className="primary" onClick={() => onAnswer('approve')}>
            Approve
          </button>
          <button type="button" className="danger" onClick={() => onAnswer('reject')}>
            Reject
          </button>
        </div>
      )}
    </div>
  );
}
