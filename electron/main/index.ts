// The desktop app's main process, kept thin: one window showing the renderer
// from the app's own protocol, the session service on a worker thread, one
// validated IPC handler, secrets in the OS keychain, a log file and a menu.
// Security: sandboxed renderer with context isolation and no Node, a CSP on
// every page, navigation and new windows blocked (links to allowlisted sites open
// in the browser), every permission request and check denied, a dev server URL
// honoured only in development, one instance at a time.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  BrowserWindow,
  Menu,
  type MenuItemConstructorOptions,
  app,
  dialog,
  ipcMain,
  net,
  protocol,
  safeStorage,
  session,
  shell,
} from 'electron';
import { type GlPlan, glPlan } from '../../base/software-gl.mjs';
import type { AppMethods } from '../../contract/api';
import { AppApiError } from '../../contract/api';
import { IPC } from '../../contract/wire';
import { setModelProcessLauncher } from '../../hosts/service/model-processes';
import { type WorkerSession, startWorkerSession } from '../../hosts/service/worker-session';
import { registerApi, trustFrom } from './ipc';
import { openLog } from './log';
import { utilityProcessLauncher } from './model-process';
import { devRendererUrl, keyQuestion, mayOpenExternal } from './policy';
import { SecretStore } from './secrets';

const SCHEME = 'app';
const HOST = 'skillbridge';
const APP_ORIGIN = `${SCHEME}://${HOST}`;
const here = import.meta.dirname;
/** electron-vite's dev server, when running `electron-vite dev` (never in a packaged app). */
const devUrl = devRendererUrl(app.isPackaged, process.env);
const rendererRoot = path.join(here, '../renderer');

const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

protocol.registerSchemesAsPrivileged([{ scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

// How WebGL is drawn: the GPU, or without one Mesa's llvmpipe, else SwiftShader (base/software-gl.mjs).
// The switches must be set before the app is ready; a wrong SKILLBRIDGE_GL is refused, not guessed at.
const gl = glPlanOrExit();

if (!gl) {
  app.exit(2);
} else if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void main();
}

let win: BrowserWindow | null = null;

async function main(): Promise<void> {
  await app.whenReady();
  const log = openLog(app.getPath('logs'));
  log(
    `Skillbridge ${app.getVersion()} starting (Electron ${process.versions.electron}); WebGL through ${gl?.backend ?? '?'}: ${gl?.why ?? ''}`,
  );
  const secrets = new SecretStore(path.join(app.getPath('userData'), 'secrets.json'), safeStorage);

  serveRenderer();
  session.defaultSession.setPermissionRequestHandler((_wc, perm, done) => {
    log(`denied a permission request: ${perm}`);
    done(false);
  });
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.webRequest.onHeadersReceived((details, done) => {
    done({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
  });

  // The Evaluate view's worker threads start the evaluation worker built beside this file.
  process.env['SKILLBRIDGE_EVAL_WORKER'] = pathToFileURL(path.join(here, 'eval-worker.js')).href;
  // Local models run in utility processes (this app cannot fork Node); the session's threads start them through this thread.
  setModelProcessLauncher(utilityProcessLauncher(here));
  let sim: WorkerSession;
  try {
    sim = await startWorkerSession({
      paced: true,
      workerUrl: pathToFileURL(path.join(here, 'sim-worker.js')),
      traceDir: path.join(app.getPath('userData'), 'traces'),
      evalDir: path.join(app.getPath('userData'), 'eval-results'),
      // Model API keys: the key stored for the server's base URL first; createModel falls back to the environment.
      secrets: (scope) => secrets.get(scope.baseURL),
      // SKILLBRIDGE_API_KEY goes to a base URL the window named only when the person here says so.
      confirmKey: (baseURL) => confirmKey(baseURL, log),
      // The desktop user picks script files on this machine.
      scriptFiles: 'any',
      // Local models live in the app's data folder (SKILLBRIDGE_MODELS_DIR overrides it); runs, evaluations and the store use this one.
      modelsDir: process.env['SKILLBRIDGE_MODELS_DIR'] || path.join(app.getPath('userData'), 'models'),
      // The window is the host's own: its person downloads and removes local models.
      manageModels: true,
      onLog: log,
      // The window opens while the worker boots; its first request waits for the scene.
      background: true,
    });
    sim.loadScene({ id: 'tabletop/fruits' }).catch((e: unknown) => log(`the first scene did not load: ${(e as Error).stack ?? String(e)}`));
  } catch (e) {
    log(`the simulation failed to start: ${(e as Error).stack ?? String(e)}`);
    throw e;
  }

  const api: AppMethods = {
    ...sim,
    setApiKey: async (r) => {
      try {
        const p = await secrets.set(r.baseURL, r.key);
        return { ok: true, message: `key for ${r.baseURL} stored, encrypted with ${p.name}; it is sent to that server only` };
      } catch (e) {
        throw new AppApiError('unsupported', (e as Error).message);
      }
    },
    hasApiKey: async (r) => ({ stored: await secrets.has(r.baseURL) }),
    clearApiKey: async (r) => {
      const had = await secrets.clear(r.baseURL);
      return { ok: had, message: had ? `key for ${r.baseURL} removed` : `no key stored for ${r.baseURL}` };
    },
  };

  const origins = devUrl ? [APP_ORIGIN, new URL(devUrl).origin] : [APP_ORIGIN];
  registerApi(
    ipcMain,
    api,
    trustFrom(origins, (id) => win?.webContents.id === id),
    log,
  );
  sim.onPoses((frame) => win?.webContents.send(IPC.poses, frame));
  sim.onEvent((event) => win?.webContents.send(IPC.event, event));

  buildMenu(sim, log);
  createWindow(log);

  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('activate', () => {
    if (!win) createWindow(log);
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', () => {
    void sim.dispose();
  });
}

/** Answers per base URL, for this run of the app. */
const keyAnswers = new Map<string, boolean>();

/** Asks the person whether SKILLBRIDGE_API_KEY may go to a server the window named. */
async function confirmKey(baseURL: string, log: (line: string) => void): Promise<boolean> {
  const known = keyAnswers.get(baseURL);
  if (known !== undefined) return known;
  const q = keyQuestion(baseURL);
  const opts = { type: 'question' as const, buttons: ['Send the key', 'Do not send'], defaultId: 1, cancelId: 1, ...q };
  const r = win ? await dialog.showMessageBox(win, opts) : await dialog.showMessageBox(opts);
  const yes = r.response === 0;
  keyAnswers.set(baseURL, yes);
  log(`API key for ${baseURL}: ${yes ? 'allowed' : 'refused'} by the user`);
  return yes;
}

/** Serves the built renderer on app://skillbridge/, never outside its folder. */
function serveRenderer(): void {
  protocol.handle(SCHEME, async (req) => {
    const url = new URL(req.url);
    if (url.host !== HOST) return new Response('not found', { status: 404 });
    const rel = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
    const file = path.resolve(rendererRoot, `.${rel}`);
    if (!file.startsWith(rendererRoot + path.sep)) return new Response('forbidden', { status: 403 });
    const res = await net.fetch(pathToFileURL(file).toString());
    const headers = new Headers(res.headers);
    headers.set('Content-Security-Policy', CSP);
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(res.body, { status: res.status, headers });
  });
}

function createWindow(log: (line: string) => void): void {
  win = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 1000,
    minHeight: 640,
    title: 'Skillbridge',
    backgroundColor: '#14171c',
    show: false,
    webPreferences: {
      preload: path.join(here, '../preload/index.cjs'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  const contents = win.webContents;
  const start = devUrl ?? `${APP_ORIGIN}/index.html`;
  // Nothing navigates away from the app; links to allowlisted sites open in the user's browser.
  const openOutside = (url: string): void => {
    if (mayOpenExternal(url)) void shell.openExternal(url);
    else log(`did not open a link outside the allowlist: ${url.slice(0, 200)}`);
  };
  contents.on('will-navigate', (e, url) => {
    if (url !== start) {
      e.preventDefault();
      openOutside(url);
    }
  });
  contents.setWindowOpenHandler(({ url }) => {
    openOutside(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (e) => e.preventDefault());
  contents.on('render-process-gone', (_e, d) => log(`renderer gone: ${d.reason}`));
  win.once('ready-to-show', () => win?.show());
  win.on('closed', () => {
    win = null;
  });
  void win.loadURL(start);
}

function buildMenu(sim: WorkerSession, log: (line: string) => void): void {
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'Scene',
      submenu: [
        {
          label: 'Reset scene',
          accelerator: 'CmdOrCtrl+R',
          click: () => void sim.resetScene({}).catch((e: Error) => log(`reset failed: ${e.message}`)),
        },
        { type: 'separator' },
        { label: 'Emergency stop', accelerator: 'CmdOrCtrl+.', click: () => void sim.injectEvent({ type: 'estop_pressed' }) },
        { label: 'Release emergency stop', click: () => void sim.injectEvent({ type: 'estop_released' }) },
        { type: 'separator' },
        process.platform === 'darwin' ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
        ...(app.isPackaged ? [] : [{ role: 'toggleDevTools' as const }]),
      ],
    },
    {
      label: 'Help',
      submenu: [{ label: 'Open log folder', click: () => void shell.openPath(app.getPath('logs')) }],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

/** Applies how this machine draws WebGL (switches and the environment Mesa reads); null after saying why it cannot. */
function glPlanOrExit(): GlPlan | null {
  try {
    const plan = glPlan();
    for (const sw of plan.switches) {
      const at = sw.indexOf('=');
      if (at < 0) app.commandLine.appendSwitch(sw);
      else app.commandLine.appendSwitch(sw.slice(0, at), sw.slice(at + 1));
    }
    Object.assign(process.env, plan.env);
    return plan;
  } catch (e) {
    process.stderr.write(`skillbridge: ${(e as Error).message}\n`);
    return null;
  }
}
