// The emergency stop in the header, on every tab: large, with its key on it.
// Pressed, it says so in red until someone releases it deliberately (no key
// releases it). The host also ends the agent's run when it is pressed. It sits
// above every dialog and overlay (styles.css), so a click on it always lands.
import { useLayoutEffect, useRef, useState } from 'react';

export function EstopButton({
  pressed,
  disabled,
  releaseDisabled = false,
  onPress,
  onRelease,
}: {
  pressed: boolean;
  disabled: boolean;
  /** Watching another session: only the teacher releases its e-stop. */
  releaseDisabled?: boolean;
  onPress: () => void;
  onRelease: () => void;
}) {
  // Where STOP was, kept for the pressed state: its words are at least as wide, and if the
  // header put Release where STOP was (it grows towards whichever side has room), Release
  // goes to the other end, so the pointer that pressed STOP does not rest on Release.
  const stopRef = useRef<HTMLButtonElement>(null);
  const releaseRef = useRef<HTMLButtonElement>(null);
  const stopRect = useRef<DOMRect | null>(null);
  const [stopWidth, setStopWidth] = useState(0);
  const [releaseFirst, setReleaseFirst] = useState(false);
  useLayoutEffect(() => {
    if (!pressed) {
      const r = stopRef.current?.getBoundingClientRect() ?? null;
      stopRect.current = r;
      if (r) setStopWidth(r.width);
      setReleaseFirst(false);
      return;
    }
    const was = stopRect.current;
    const rel = releaseRef.current?.getBoundingClientRect();
    if (!was || !rel) return;
    const x = was.left + was.width / 2;
    const y = was.top + was.height / 2;
    if (!releaseFirst && x >= rel.left && x <= rel.right && y >= rel.top && y <= rel.bottom) setReleaseFirst(true);
  }, [pressed, releaseFirst]);
  return pressed ? (
    <div className={`estop-head pressed${releaseFirst ? ' release-first' : ''}`} role="status" aria-live="assertive">
      <span className="estop-state" style={{ minWidth: stopWidth }}>
        E-STOP PRESSED
      </span>
      <button ref={releaseRef} type="button" className="estop-release" onClick={onRelease} disabled={disabled || releaseDisabled}>
        Release
      </button>
    </div>
  ) : (
    <button
      ref={stopRef}
      type="button"
      className="estop-head"
      onClick={() => {
        // Where it is now (the header may have reflowed since it was drawn).
        const r = stopRef.current?.getBoundingClientRect();
        if (r) {
          stopRect.current = r;
          setStopWidth(r.width);
        }
        onPress();
      }}
      disabled={disabled}
      aria-label="Emergency stop (Esc)"
      aria-keyshortcuts="Escape"
      title="Stops the robot at once and ends the agent's run (Esc, or Space outside fields)"
    >
      <span className="estop-icon" aria-hidden="true">
        ■
      </span>{' '}
      STOP <kbd>Esc</kbd>
    </button>
  );
}

/** Over the 3D view while the e-stop is pressed. */
export function EstopOverlay() {
  return (
    <div className="view-estop" role="status" data-testid="view-estop">
      Emergency stop pressed: the robot does not move until it is released
    </div>
  );
}
