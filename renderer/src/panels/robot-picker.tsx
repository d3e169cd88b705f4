// The robot of the scene: the person picks a robot folder (a .urdf or
// .urdf.xacro with its meshes and an optional .skillbridge.json sidecar); the
// page uploads its files in chunks (a page cannot name the host's files), and
// the host rebuilds the scene with that robot, or refuses it with the reason
// and keeps the robot before. Its problems are listed per element. "Use the
// scene's own robot" goes back.
import { useState } from 'react';
import type { AppApi } from '../../../contract/api';
import { MAX_ROBOT_CHUNK_BYTES, MAX_ROBOT_FOLDER_BYTES, type RobotChoice } from '../../../contract/robot-upload';

/** The files a robot description needs; the rest of a folder (sources, .git) is not sent. */
const WANTED = /\.(urdf|xacro|stl|obj|dae|json)$|(^|\/)package\.xml$/i;

function base64(bytes: Uint8Array): string {
  let s = '';
  // In pieces: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

const pathOf = (f: File): string => f.webkitRelativePath || f.name;

/** Uploads the files picked, then asks the host to use the robot in them. */
async function uploadFolder(api: AppApi, picked: File[], progress: (text: string) => void): Promise<RobotChoice> {
  const files = picked.filter(
    (f) =>
      WANTED.test(pathOf(f)) &&
      !pathOf(f)
        .split('/')
        .some((p) => p.startsWith('.')),
  );
  const total = files.reduce((n, f) => n + f.size, 0);
  if (!files.length) throw new Error('the folder has no .urdf, .xacro, mesh or sidecar file');
  if (total > MAX_ROBOT_FOLDER_BYTES) throw new Error(`the folder's robot files are over ${MAX_ROBOT_FOLDER_BYTES / 1024 / 1024} MiB`);
  let first = true;
  for (const [k, f] of files.entries()) {
    progress(`uploading ${k + 1} of ${files.length}: ${pathOf(f)}`);
    const bytes = new Uint8Array(await f.arrayBuffer());
    for (let at = 0; at === 0 || at < bytes.length; at += MAX_ROBOT_CHUNK_BYTES) {
      await api.putRobotFile({ path: pathOf(f), offset: at, data: base64(bytes.subarray(at, at + MAX_ROBOT_CHUNK_BYTES)), start: first });
      first = false;
    }
  }
  progress('building the scene with the robot…');
  return api.useRobot({ robot: 'uploaded' });
}

export interface RobotPickerProps {
  api: AppApi;
  /** The robot drawn now (the scene meta's title). */
  robot: string | null;
  disabled?: boolean;
}

export function RobotPicker({ api, robot, disabled = false }: RobotPickerProps) {
  const [busy, setBusy] = useState<string | null>(null);
  const [choice, setChoice] = useState<RobotChoice | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fromFolder, setFromFolder] = useState(false);

  const run = async (work: () => Promise<RobotChoice>, folder: boolean) => {
    setError(null);
    try {
      const c = await work();
      setChoice(c);
      if (c.ok) setFromFolder(folder);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  };
  const pick = (files: FileList | null) => {
    if (!files?.length) return;
    const list = [...files];
    setBusy('uploading…');
    void run(() => uploadFolder(api, list, setBusy), true);
  };

  return (
    <details className="robot-picker" data-testid="robot-picker">
      <summary title="The robot in the scene: the scene's own, or one you describe (URDF)">Robot</summary>
      <div className="robot-picker-panel">
        <p data-testid="robot-in-use">
          In the scene: <strong>{robot ?? '(none)'}</strong>
          {fromFolder ? ' (from the folder you picked)' : ''}
        </p>
        <label className="button-like">
          Load a robot folder…
          <input
            type="file"
            multiple
            aria-label="Robot folder"
            disabled={disabled || busy !== null}
            ref={(el) => el?.setAttribute('webkitdirectory', '')}
            onChange={(e) => {
              pick(e.target.files);
              e.target.value = '';
            }}
          />
        </label>
        <button
          type="button"
          disabled={disabled || busy !== null}
          onClick={() => {
            setBusy("building the scene with the scene's own robot…");
            void run(() => api.useRobot({ robot: 'own' }), false);
          }}
        >
          Use the scene's own robot
        </button>
        {busy && <p role="status">{busy}</p>}
        {error && <p role="alert">{error}</p>}
        {choice && !choice.ok && (
          <p role="alert" data-testid="robot-refused">
            Refused: {choice.reason}. The robot before stays.
          </p>
        )}
        {choice && choice.problems.length > 0 && (
          <ul className="robot-problems" aria-label="Robot description problems">
            {choice.problems.map((p, i) => (
              <li key={i} className={p.severity}>
                <strong>{p.element}</strong>: {p.problem} — {p.fix}
              </li>
            ))}
          </ul>
        )}
      </div>
    </details>
  );
}
