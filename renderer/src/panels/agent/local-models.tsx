// Local models in the model settings: the catalogue and the host's models folder, a download
// with a progress bar (events from the host), cancel, remove, and "Use" to run one as local:ID.
// Whether this page may download or remove is the host's answer (listLocalModels.canManage).
import { useCallback, useEffect, useState } from 'react';
import type { AppApi } from '../../../../contract/api';
import type { LocalModelInfo, LocalModelList, ModelPullEvent } from '../../../../contract/local-models';

function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '?';
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)} kB`;
  return `${n} B`;
}

function status(m: LocalModelInfo, pull: ModelPullEvent | undefined): string {
  if (pull?.state === 'running') return 'downloading';
  if (m.installed) return 'installed';
  if (m.partialBytes > 0 && m.sizeBytes) return `partly downloaded (${Math.floor((100 * m.partialBytes) / m.sizeBytes)}%)`;
  return 'not installed';
}

export function LocalModelsPanel({
  api,
  selected,
  onSelect,
  onProblem,
}: {
  api: AppApi;
  selected: string;
  onSelect: (id: string) => void;
  onProblem: (message: string) => void;
}) {
  const [list, setList] = useState<LocalModelList | null>(null);
  const [pulls, setPulls] = useState<Record<string, ModelPullEvent>>({});
  const refresh = useCallback(() => {
    api.listLocalModels({}).then(setList, (e: unknown) => onProblem(e instanceof Error ? e.message : String(e)));
  }, [api, onProblem]);

  useEffect(() => {
    refresh();
    return api.onEvent((e) => {
      if (e.type !== 'model_pull') return;
      setPulls((p) => ({ ...p, [e.event.id]: e.event }));
      if (e.event.state !== 'running') refresh();
    });
  }, [api, refresh]);

  const act = (p: Promise<{ ok: boolean; message: string }>) =>
    p.then(
      (r) => {
        if (!r.ok) onProblem(r.message);
        refresh();
      },
      (e: unknown) => onProblem(e instanceof Error ? e.message : String(e)),
    );

  if (!list) return <p className="muted">Reading the models folder…</p>;
  const chosen = list.models.find((m) => m.id === selected);
  return (
    <div className="local-models" data-testid="local-models">
      {!list.runtime.available && (
        <p className="note fail" role="status" data-testid="local-runtime">
          {list.runtime.message}
        </p>
      )}
      {selected && !chosen && <p className="note fail">No model "{selected}" in the models folder: download or choose one below.</p>}
      {selected && chosen && !chosen.installed && <p className="note fail">{chosen.name} is not downloaded yet.</p>}
      <table className="local-models-table">
        <thead>
          <tr>
            <th>Model</th>
            <th>Size</th>
            <th>RAM</th>
            <th>Licence</th>
            <th>Status</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {list.models.map((m) => {
            const pull = pulls[m.id];
            const running = pull?.state === 'running';
            return (
              <tr key={m.id} data-testid={`local-model-${m.id}`} data-installed={m.installed ? 'yes' : 'no'}>
                <td title={m.note}>
                  {m.name}
                  {m.publisher ? <span className="muted"> · {m.publisher}</span> : null}
                  {m.check === 'size-only' ? (
                    <span className="muted" title="no published checksum: checked by size only">
                      {' '}
                      · unverified
                    </span>
                  ) : null}
                </td>
                <td>{bytes(m.sizeBytes)}</td>
                <td>{m.ramBytes ? `~${bytes(m.ramBytes)}` : '?'}</td>
                <td>{m.licence ?? 'your file'}</td>
                <td>
                  {status(m, pull)}
                  {running && (
                    <>
                      {' '}
                      <progress
                        aria-label={`Download of ${m.name}`}
                        value={pull.received}
                        max={pull.total ?? m.sizeBytes ?? undefined}
                      />{' '}
                      <span className="muted">
                        {pull.total ? `${Math.floor((100 * pull.received) / pull.total)}%` : bytes(pull.received)} ·{' '}
                        {bytes(pull.bytesPerSecond)}/s
                      </span>
                    </>
                  )}
                  {pull && pull.state !== 'running' && pull.state !== 'done' && pull.message && <div className="muted">{pull.message}</div>}
                </td>
                <td>
                  {m.installed && (
                    <button type="button" onClick={() => onSelect(m.id)} disabled={selected === m.id} aria-label={`Use ${m.name}`}>
                      {selected === m.id ? 'In use' : 'Use'}
                    </button>
                  )}
                  {list.canManage && !m.installed && !running && m.source === 'catalogue' && (
                    <button type="button" onClick={() => void act(api.pullLocalModel({ id: m.id }))} aria-label={`Download ${m.name}`}>
                      {m.partialBytes > 0 ? 'Resume' : 'Download'}
                    </button>
                  )}
                  {list.canManage && running && (
                    <button
                      type="button"
                      onClick={() => void act(api.cancelLocalModelPull({ id: m.id }))}
                      aria-label={`Stop downloading ${m.name}`}
                    >
                      Stop
                    </button>
                  )}
                  {list.canManage && (m.installed || m.partialBytes > 0) && !running && (
                    <button type="button" onClick={() => void act(api.removeLocalModel({ id: m.id }))} aria-label={`Remove ${m.name}`}>
                      Remove
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="muted">
        Folder on the host: <code>{list.dir}</code>. {list.canManage ? '' : `${list.manageNote ?? ''} `}A .gguf of your own: put it there,
        or run <code>skillbridge models add FILE</code> on the host.
      </p>
    </div>
  );
}
