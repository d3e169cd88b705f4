// Entry point: find the host (desktop bridge or web-mode socket), then render.
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { type Connection, connect } from './connect';
import './styles.css';

function Root() {
  const [conn, setConn] = useState<Connection | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [closed, setClosed] = useState<string | null>(null);

  useEffect(() => {
    connect().then(
      (c) => {
        setConn(c);
        if (c.kind === 'web') c.api.onClose((reason) => setClosed(reason));
      },
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  }, []);

  if (error) {
    return (
      <div className="fullscreen-message" role="alert">
        <h1>Cannot reach the Skillbridge host</h1>
        <p>{error}</p>
        <p>
          Start it with <code>skillbridge serve</code> and open the URL it prints.
        </p>
      </div>
    );
  }
  if (!conn) return <div className="fullscreen-message">Connecting…</div>;
  if (conn.kind === 'no-token') {
    return (
      <div className="fullscreen-message" role="alert">
        <h1>Access token missing</h1>
        <p>
          Open the exact URL that <code>skillbridge serve</code> printed: it ends in <code>?token=…</code>. The token keeps other pages and
          programs from driving the robot.
        </p>
      </div>
    );
  }
  return (
    <>
      {closed && (
        <div className="banner fixed" role="alert">
          Disconnected from the host ({closed}). Restart <code>skillbridge serve</code> and reload.
        </div>
      )}
      <App api={conn.api} desktop={conn.kind === 'desktop'} />
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
