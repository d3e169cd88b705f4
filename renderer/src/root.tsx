// The page's React root: renders the app once the host is found (desktop bridge
// or web-mode socket; main.tsx starts looking before this loads). In web mode a dropped socket is reconnected with backoff (the host restarted,
// the laptop slept); when the host came back with a new token, the page says so
// and how to get the new link, instead of guessing.
import { StrictMode, useCallback, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { type Connection, backoffMs, checkToken, connect, storedToken } from './connect';
import type { FirstScene, Start } from './first-scene';

// Where the page's start goes (`skillbridge bench app` reads these marks): scripts run, host connected, scene built, first frame.
performance.mark('sb:script');

interface Lost {
  reason: string;
  /** When the next attempt starts (ms since epoch), or null when waiting for the person. */
  retryAt: number | null;
  tokenChanged: boolean;
}

function Root({ start }: { start: Start }) {
  const [conn, setConn] = useState<Connection | null>(null);
  const [firstScene, setFirstScene] = useState<FirstScene | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [lost, setLost] = useState<Lost | null>(null);
  const [generation, setGeneration] = useState(0);
  const [, tick] = useState(0);
  const attempt = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const watch = useCallback((c: Connection) => {
    if (c.kind !== 'web') return;
    c.api.onClose((reason) => {
      attempt.current = 0;
      schedule(reason);
    });
  }, []);

  const tryAgain = useCallback(
    async (reason: string) => {
      const token = storedToken();
      const state = token ? await checkToken(token) : 'changed';
      if (state === 'changed') {
        setLost({ reason, retryAt: null, tokenChanged: true });
        return;
      }
      if (state === 'ok') {
        try {
          const c = await connect();
          attempt.current = 0;
          setConn(c);
          setGeneration((g) => g + 1);
          setLost(null);
          watch(c);
          return;
        } catch {
          // fall through: try again later
        }
      }
      attempt.current++;
      schedule(reason);
    },
    [watch],
  );

  function schedule(reason: string): void {
    clearTimeout(timer.current);
    const wait = backoffMs(attempt.current);
    setLost({ reason, retryAt: Date.now() + wait, tokenChanged: false });
    timer.current = setTimeout(() => void tryAgain(reason), wait);
  }

  useEffect(() => {
    start.connection.then(
      async (c) => {
        setFirstScene(await start.firstScene);
        setConn(c);
        watch(c);
      },
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
    const t = setInterval(() => tick((x) => x + 1), 500);
    return () => {
      clearInterval(t);
      clearTimeout(timer.current);
    };
  }, [watch, start]);

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
  const secs = lost?.retryAt ? Math.max(0, Math.ceil((lost.retryAt - Date.now()) / 1000)) : 0;
  return (
    <>
      {lost && (
        <div className="banner fixed" role="alert" data-testid="connection-lost">
          {lost.tokenChanged ? (
            <>
              The host restarted with a new access token, so this page's link no longer opens it. Open the new link that{' '}
              <code>skillbridge serve</code> printed in its terminal (it ends in <code>?token=…</code>).
            </>
          ) : (
            <>
              Connection to the host lost ({lost.reason}). Reconnecting{secs ? ` in ${secs} s` : '…'}{' '}
              <button
                type="button"
                className="link"
                onClick={() => {
                  clearTimeout(timer.current);
                  void tryAgain(lost.reason);
                }}
              >
                try now
              </button>
            </>
          )}
        </div>
      )}
      <App
        key={generation}
        api={conn.api}
        {...(generation === 0 && firstScene ? { firstScene } : {})}
        desktop={conn.kind === 'desktop'}
        session={conn.kind === 'web' ? conn.api.session : undefined}
        onSession={conn.kind === 'web' ? conn.api.onSession : undefined}
      />
    </>
  );
}

export function mount(start: Start): void {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Root start={start} />
    </StrictMode>,
  );
}
