// A classroom group as people see it named: the name it gave itself (or the
// teacher gave it), else "Group 5" for session s5. The page and the host's own
// messages use this one, so a note never names a group by its internal id.
export function groupName(s: { id: string; label: string | null }): string {
  return s.label ?? `Group ${s.id.replace(/^s/, '')}`;
}
