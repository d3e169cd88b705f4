// The emergency stop in the header, on every tab: large, with its key on it.
// Pressed, it says so in red until someone releases it deliberately (no key
// releases it). The host also ends the agent's run when it is pressed. It sits
// above every dialog and overlay (styles.css), so a click on it always lands.
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
  return pressed ? (
    <div className="estop-head pressed" role="status" aria-live="assertive">
      <span className="estop-state">E-STOP PRESSED</span>
      <button type="button" className="estop-release" onClick={onRelease} disabled={disabled || releaseDisabled}>
        Release
      </button>
    </div>
  ) : (
    <button
      type="button"
      className="estop-head"
      onClick={onPress}
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
