// What happened, newest first: robot events and the console's tool calls.
export interface LogLine {
  key: string;
  time: string;
  text: string;
  kind: 'event' | 'tool' | 'error';
}

export function EventLog({ lines }: { lines: readonly LogLine[] }) {
  return (
    <section className="panel log" aria-label="Event log">
      {lines.length === 0 ? (
        <p className="muted">Nothing yet. Events (emergency stop, speech, battery, dropped objects) and tool calls appear here.</p>
      ) : (
        <ol className="log-list">
          {lines.map((l) => (
            <li key={l.key} className={`log-${l.kind}`}>
              <span className="log-time">{l.time}</span> {l.text}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
