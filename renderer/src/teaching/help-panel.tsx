// The help panel: what each part of the window is for, in plain words with the
// papers' names second, and every keyboard shortcut (from the one table the
// keys are handled by).
import { useEffect, useRef } from 'react';
import { SHORTCUTS } from './shortcuts';

export function HelpPanel({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="help-backdrop" onClick={onClose}>
      <div
        ref={ref}
        className="help"
        role="dialog"
        aria-modal="true"
        aria-label="Help"
        tabIndex={-1}
        onClick={(e) => e.stopPropagation()}
        data-testid="help"
      >
        <header className="panel-head">
          <h2>Help</h2>
          <button type="button" onClick={onClose}>
            Close
          </button>
        </header>
        <div className="help-body">
          <section>
            <h3>The window</h3>
            <dl>
              <dt>3D view</dt>
              <dd>
                The simulated world. Drag empty space to turn the camera, scroll to zoom, drag an object to move it (the robot is told that
                someone moved it). The inset shows what the robot's own camera sees.
              </dd>
              <dt>Tool console (left)</dt>
              <dd>Call the robot's tools yourself and read exactly what a language model would read back.</dd>
              <dt>Agent</dt>
              <dd>
                Connect a model, choose how it works (a workflow: one list of tools, or a planner with helpers…), and give it a task. With
                approval set to “ask before actions”, every move waits for you.
              </dd>
              <dt>World</dt>
              <dd>Things that happen around the robot: a person speaks, an object is moved, the battery runs low; the seed and noise.</dd>
              <dt>Runs</dt>
              <dd>Every run of this session: watch it again in 3D with a timeline, two side by side, or export its trace.</dd>
              <dt>Tasks</dt>
              <dd>
                Exercise cards for this scene with automatic checks (✓ / ✗ and what is missing). A teacher can add a card as a JSON file:
                <code>{` { "id": "my-task", "scene": "tabletop/fruits", "title": "…", "task": "…", "goal": { "fact": "in(lemon_1, bowl_1)" } }`}</code>
                . Goals: <code>fact</code>, <code>holding</code>, <code>called</code>, <code>before</code>, <code>answer</code>, combined
                with <code>all</code>, <code>any</code>, <code>not</code>.
              </dd>
              <dt>Emergency stop</dt>
              <dd>Always in the header. It stops the robot at once and ends the agent's run; release it to move again.</dd>
            </dl>
          </section>
          <section>
            <h3>Keyboard</h3>
            <table className="keys">
              <tbody>
                {SHORTCUTS.map((s) => (
                  <tr key={s.label + s.action}>
                    <td>
                      <kbd>{s.label}</kbd>
                    </td>
                    <td>{s.what}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <section>
            <h3>Where the ideas come from</h3>
            <p className="muted">
              Tool workflows (TORO, MAYA, AIMM), the flow manager and its warnings (RAIDER), the tabletop tasks (ALRM), the planner and
              executor with events (DFKI) and tool cards (Embodied Tool Protocol): see the README for each paper.
            </p>
          </section>
        </div>
      </div>
    </div>
  );
}
