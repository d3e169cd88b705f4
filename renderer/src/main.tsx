// Entry point, kept small: it starts connecting to the host (and asks for the
// scene the first frame draws) while the rest of the page (React, Babylon, the
// panels) is still loading, then hands both to the app (root.tsx).
import { connect } from './connect';
import { type Start, askFirstScene } from './first-scene';
import { prepareCanvas } from './view/early-canvas';
import './styles.css';

const root = import('./root');
const connection = connect();
connection.then(
  () => performance.mark('sb:connected'),
  () => undefined,
);
// The view's GL context, made while the app's scripts arrive (the socket opens meanwhile).
prepareCanvas();
const start: Start = {
  connection,
  firstScene: connection.then(
    (c) => (c.kind === 'no-token' ? null : askFirstScene(c.api)),
    () => null,
  ),
};
root.then(
  (m) => m.mount(start),
  (e: unknown) => {
    // The app's chunk did not arrive (a build replaced under a running server, a dropped
    // connection): say so and how to recover, rather than leave a blank page.
    const el = document.getElementById('root');
    if (el)
      el.textContent = `Skillbridge could not load its page (${e instanceof Error ? e.message : String(e)}). Reload the page; if it stays, restart the app.`;
  },
);
