// Keyboard shortcuts: one table for the handler and the help panel, so the
// help lists exactly what the keys do. Keys are ignored while a person types in
// a field, except Esc (the emergency stop must always be in reach).
import { useEffect, useRef } from 'react';

export type ShortcutAction =
  | 'estop'
  | 'pause'
  | 'step'
  | 'help'
  | 'labels'
  | 'follow'
  | 'present'
  | 'bigger'
  | 'smaller'
  | 'left'
  | 'right'
  | 'replayPlay'
  | 'replayBack'
  | 'replayForward';

export interface Shortcut {
  action: ShortcutAction;
  /** KeyboardEvent.key values that trigger it. */
  keys: readonly string[];
  /** As the help shows it. */
  label: string;
  what: string;
  /** Fires even while a field has the focus. */
  always?: boolean;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { action: 'estop', keys: ['Escape'], label: 'Esc', what: 'Emergency stop: the robot stops and the agent run ends', always: true },
  { action: 'estop', keys: [' '], label: 'Space', what: 'Emergency stop too, when no button or field has the focus' },
  { action: 'pause', keys: ['p', 'P'], label: 'P', what: 'Pause or resume the physics' },
  { action: 'step', keys: ['.', 'n', 'N'], label: '. or N', what: 'While paused: one step forward (1/60 s)' },
  { action: 'labels', keys: ['l', 'L'], label: 'L', what: 'Labels on every object in the 3D view' },
  { action: 'follow', keys: ['f', 'F'], label: 'F', what: 'The camera follows the robot' },
  { action: 'present', keys: ['m', 'M'], label: 'M', what: 'Presentation mode: larger text, labels on, camera follows the robot' },
  { action: 'bigger', keys: ['+', '='], label: '+', what: 'Larger text' },
  { action: 'smaller', keys: ['-', '_'], label: '−', what: 'Smaller text' },
  { action: 'left', keys: ['['], label: '[', what: 'Hide or show the tool console' },
  { action: 'right', keys: [']'], label: ']', what: 'Hide or show the side panel (agent, world, runs…)' },
  { action: 'replayPlay', keys: ['k', 'K'], label: 'K', what: 'While watching a run: play or pause' },
  { action: 'replayBack', keys: ['ArrowLeft'], label: '←', what: 'While watching a run: one step back' },
  { action: 'replayForward', keys: ['ArrowRight'], label: '→', what: 'While watching a run: one step forward' },
  { action: 'help', keys: ['?', 'F1'], label: '? or F1', what: 'This help' },
];

/** Whether the key event comes from a place where keys mean text (or a control's own keys). */
function typing(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  if (!t || !t.tagName) return false;
  if (t.isContentEditable) return true;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName);
}

/** Space belongs to the focused control (a button presses, a checkbox toggles) except on the page or the 3D view. */
function spaceIsFree(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  return !t || t === document.body || t.tagName === 'CANVAS' || t.tagName === 'MAIN' || t.tagName === 'DIV';
}

export function actionFor(e: KeyboardEvent): ShortcutAction | undefined {
  if (e.ctrlKey || e.metaKey || e.altKey) return undefined;
  const s = SHORTCUTS.find((x) => x.keys.includes(e.key));
  if (!s) return undefined;
  if (s.action === 'estop' && e.key === ' ') return !typing(e) && spaceIsFree(e) ? 'estop' : undefined;
  if (!s.always && typing(e)) return undefined;
  return s.action;
}

/** Calls `handlers[action]` for each shortcut pressed; a handler that returns false lets the key through. */
export function useShortcuts(handlers: Partial<Record<ShortcutAction, () => boolean | void>>): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const a = actionFor(e);
      if (!a) return;
      const h = ref.current[a];
      if (!h) return;
      if (h() === false) return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
