// The 3D view panel: a canvas driven by World, hover labels, the robot-camera
// inset frame, view toggles, and a plain message when WebGL is unavailable or
// the GPU context is lost (the rest of the app keeps working without the view).
import { type ReactNode, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { AppApi } from '../../../contract/api';
import type { SceneMeta } from '../../../contract/schemas';
import { webglSupport } from './early-canvas';
import { type DropHandler, type Hover, INSET_H, INSET_W, type LabelPoint, type ViewOptions, World } from './world';
import { labelSize } from './world-labels';
import { takeCanvas } from './early-canvas';
import { SpeechBubble, useSpeech } from './speech';
import { FpsReadout } from './fps-readout';
import { QUALITIES, type Quality, qualitySettings, useViewPrefs } from './view-prefs';

export interface SceneViewProps {
  api: AppApi;
  meta: SceneMeta | null;
  highlight: readonly string[];
  /** Injected for tests: reports whether WebGL exists. */
  detectWebgl?: () => string | null;
  /** Labels on every named thing (presentation mode), not only under the mouse. */
  labels?: boolean;
  /** The camera follows the robot. */
  follow?: boolean;
  /** Where an object dragged in the view is dropped; absent: objects cannot be dragged. */
  onDrop?: DropHandler | undefined;
  /** Replaces "acting on …" in the caption (a call waiting for approval). */
  captionNote?: string | null;
  /** Drawn over the view (the e-stop state, a pending approval). */
  overlay?: ReactNode;
  /** Toggles for presentation settings, shown in the view's toolbar. */
  onToggleLabels?: () => void;
  onToggleFollow?: () => void;
  /** The view's layout (presentation mode or not): when it changes, the camera frames the scene again for the new size. */
  layout?: string;
}

/** Labels are re-projected at this period: often enough to follow motion, cheap under software GL. */
const LABEL_PERIOD_MS = 120;

const DEFAULTS: ViewOptions = { shadows: true, inset: true, colliders: false };

export function SceneView({
  api,
  meta,
  highlight,
  detectWebgl = webglSupport,
  labels = false,
  follow = false,
  onDrop,
  captionNote,
  overlay,
  onToggleLabels,
  onToggleFollow,
  layout = 'normal',
}: SceneViewProps) {
  /** Where the canvas goes: the one made early with its GL context (early-canvas.ts), or a new one. */
  const canvasHost = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const canvasLabel = `3D view of the scene${onDrop ? ': drag an object to move it' : ''}`;
  const labelRef = useRef(canvasLabel);
  labelRef.current = canvasLabel;
  const insetRef = useRef<HTMLCanvasElement | null>(null);
  // The inset canvas comes and goes with its toggle and the scene: hand each one to the world.
  const insetCallback = useCallback((c: HTMLCanvasElement | null) => {
    insetRef.current = c;
    worldRef.current?.setInsetCanvas(c);
  }, []);
  const worldRef = useRef<World | null>(null);
  /** The next resize frames the scene again (the panels folded or opened). */
  const reframeRef = useRef(false);
  const layoutRef = useRef(layout);
  const [gl] = useState(() => detectWebgl());
  const [opts, setOpts] = useState<ViewOptions>(DEFAULTS);
  const [hover, setHover] = useState<Hover | null>(null);
  const [lost, setLost] = useState(false);
  const [initError, setInitError] = useState<string | null>(null);
  const [points, setPoints] = useState<LabelPoint[]>([]);
  const [insetNote, setInsetNote] = useState<string | null>(null);
  const speech = useSpeech(api, meta);
  const [prefs, setPrefs] = useViewPrefs();
  const prefsRef = useRef(prefs);
  prefsRef.current = prefs;
  const [software, setSoftware] = useState<boolean | null>(null);
  const readFps = useCallback(() => {
    const w = worldRef.current;
    return w ? { fps: w.fps(), level: w.engine.getHardwareScalingLevel(), renderer: w.glRenderer } : undefined;
  }, []);
  const [speechAt, setSpeechAt] = useState<[number, number] | null>(null);

  useEffect(() => {
    const host = canvasHost.current;
    if (!gl || !host) return;
    const canvas = takeCanvas() ?? document.createElement('canvas');
    canvas.className = 'view-canvas';
    canvas.tabIndex = 0;
    canvas.dataset['testid'] = 'scene-canvas';
    canvas.setAttribute('aria-label', labelRef.current);
    host.append(canvas);
    canvasRef.current = canvas;
    let world: World;
    try {
      world = new World(canvas, DEFAULTS, { onHover: setHover, onContextLost: () => setLost(true), onInsetNote: setInsetNote });
    } catch (e) {
      setInitError((e as Error).message);
      return;
    }
    // The quality's settings before the first scene is built: building it with shadows
    // that software GL then turns off built (and compiled shaders for) the scene twice.
    const q = qualitySettings(prefsRef.current.quality, world.software, globalThis.devicePixelRatio);
    world.setScaling(q.scaling, q.floor);
    world.setAntialias(q.antialias);
    world.setOptions({ ...DEFAULTS, shadows: q.shadows });
    setOpts((o) => ({ ...o, shadows: q.shadows }));
    worldRef.current = world;
    world.setInsetCanvas(insetRef.current);
    setSoftware(world.software);
    // Only the tab in front draws (several groups' tabs on one laptop stay usable), and the host
    // is told, so it sends a hidden tab poses at a low rate (events still arrive as they happen).
    let shown: boolean | undefined;
    const visibility = () => {
      const visible = document.visibilityState !== 'hidden';
      world.setDrawing(visible);
      if (visible === shown) return;
      shown = visible;
      // A host that predates the call, or a dropped socket: the stream just stays at the full rate.
      api.setViewVisible({ visible }).catch(() => undefined);
    };
    document.addEventListener('visibilitychange', visibility);
    visibility();
    window.__skillbridge = {
      ready: false,
      webgl: world.glVersion,
      renderer: world.glRenderer,
      software: world.software,
      sceneId: null,
      generation: -1,
      get framesRendered() {
        return world.framesRendered;
      },
      get framesSinceLoad() {
        return world.framesSinceLoad;
      },
      get displayFrames() {
        return world.displayFrames;
      },
      get poseSeq() {
        return world.poseSeq;
      },
      get contextLost() {
        return world.contextLost;
      },
      get meshCount() {
        return world.meshCount;
      },
      get insetRenders() {
        return world.insetRenders;
      },
      fps: () => world.fps(),
      drawStats: () => world.drawStats(),
      poseLatency: () => world.poseLatency(),
      resetStats: () => world.resetStats(),
      bodyPosition: (id) => world.bodyPosition(id),
      screenPoint: (id) => world.screenPoint(id),
      screenBox: (id) => world.screenBox(id),
      robotInView: () => world.robotInView(),
      scaling: () => world.engine.getHardwareScalingLevel(),
      scalingRange: () => [world.adaptive.base, world.adaptive.floor],
      cameraRadius: () => world.cameraRadius(),
      framedRadius: () => world.framedRadius(),
      cameraAngles: () => world.cameraAngles(),
      antialiased: () => world.antialiased,
      highlighted: () => world.highlighted(),
      labels: () => world.labels(),
      get dragging() {
        return world.dragging;
      },
    };
    const off = api.onPoses((f) => world.acceptFrame(f));
    const ro = new ResizeObserver(() => {
      world.resize();
      if (reframeRef.current) {
        reframeRef.current = false;
        world.resetCamera();
      }
    });
    ro.observe(canvas);
    return () => {
      off();
      document.removeEventListener('visibilitychange', visibility);
      ro.disconnect();
      world.dispose();
      worldRef.current = null;
      canvas.remove();
      canvasRef.current = null;
    };
  }, [api, gl]);

  useEffect(() => {
    canvasRef.current?.setAttribute('aria-label', canvasLabel);
  }, [canvasLabel]);

  useEffect(() => {
    const w = worldRef.current;
    if (!w || !meta) return;
    performance.mark('sb:scene-meta');
    w.load(meta);
    performance.mark('sb:scene-built');
    w.resize();
    w.drawNow();
    if (window.__skillbridge) {
      window.__skillbridge.sceneId = meta.id;
      window.__skillbridge.generation = meta.generation;
      window.__skillbridge.ready = true;
    }
  }, [meta]);

  useEffect(() => {
    if (software === null) return;
    // The quality level sets the resolution, antialiasing and the shadows (shadows stay one click away in the toolbar).
    const q = qualitySettings(prefs.quality, software, globalThis.devicePixelRatio);
    worldRef.current?.setScaling(q.scaling, q.floor);
    worldRef.current?.setAntialias(q.antialias);
    setOpts((o) => ({ ...o, shadows: q.shadows }));
  }, [prefs.quality, software]);

  // A layout effect: set before the resize it causes is observed.
  useLayoutEffect(() => {
    if (layoutRef.current === layout) return;
    layoutRef.current = layout;
    reframeRef.current = true;
    // Should no resize follow (the panels were folded already), frame it anyway.
    const t = setTimeout(() => {
      if (!reframeRef.current) return;
      reframeRef.current = false;
      worldRef.current?.resize();
      worldRef.current?.resetCamera();
    }, 400);
    return () => clearTimeout(t);
  }, [layout]);

  useEffect(() => {
    worldRef.current?.setHighlight(highlight);
  }, [highlight, meta]);

  useEffect(() => {
    worldRef.current?.setOptions(opts);
  }, [opts]);

  useEffect(() => {
    worldRef.current?.setMotion({ follow });
  }, [follow, meta]);

  useEffect(() => {
    worldRef.current?.setDropHandler(onDrop ?? null);
  }, [onDrop, meta]);

  useEffect(() => {
    if (!labels) {
      setPoints([]);
      return;
    }
    // Labels are decluttered at the size they are drawn (the text scale of presentation mode).
    const size = () => labelSize(parseFloat(getComputedStyle(canvasRef.current ?? document.body).fontSize) * 0.92);
    const t = setInterval(() => setPoints(worldRef.current?.labels(size()) ?? []), LABEL_PERIOD_MS);
    return () => clearInterval(t);
  }, [labels, meta]);

  useEffect(() => {
    const id = speech?.person;
    // The bubble follows the speaker as the view turns (a speaker the scene does not draw speaks from the top).
    const place = () => setSpeechAt(id ? (worldRef.current?.topPoint(id) ?? null) : null);
    place();
    const t = setInterval(place, LABEL_PERIOD_MS);
    return () => clearInterval(t);
  }, [speech]);

  if (!gl) {
    return (
      <div className="view view-message" role="alert">
        <h2>3D view unavailable: this browser has no WebGL</h2>
        <p>The scene cannot be drawn here, but everything else works: call tools, inject events and read the facts in the side panels.</p>
        <p>
          To see the robot, enable hardware acceleration in the browser settings, or start Chromium with software rendering:{' '}
          <code>--use-angle=gl-egl --ignore-gpu-blocklist</code> (Mesa&apos;s llvmpipe on Linux, the faster) or{' '}
          <code>--use-angle=swiftshader --enable-unsafe-swiftshader</code>.
        </p>
      </div>
    );
  }

  const toggle = (k: keyof ViewOptions) => setOpts((o) => ({ ...o, [k]: !o[k] }));
  const cam = meta?.robot.camera;
  return (
    <div className="view">
      {/* The canvas is placed here by the effect above (it may come with its GL context already made). */}
      <div ref={canvasHost} className="view-canvas-host" />
      {points.length > 0 && (
        <div className="view-labels" aria-hidden="true" data-testid="view-labels">
          {points.map((p) => (
            <span
              key={p.id}
              className={`view-tag ${p.kind}`}
              style={{ transform: `translate(${Math.round(p.x)}px, ${Math.round(p.y)}px) translate(-50%, -100%)` }}
            >
              {p.label}
            </span>
          ))}
        </div>
      )}
      <div className="view-toolbar" role="toolbar" aria-label="View options">
        <button
          type="button"
          aria-pressed={opts.colliders}
          onClick={() => toggle('colliders')}
          title="Show the physics colliders as wireframes"
        >
          Colliders
        </button>
        <button type="button" aria-pressed={opts.inset} onClick={() => toggle('inset')} title="Show what the robot's camera sees">
          Robot camera
        </button>
        <button type="button" aria-pressed={opts.shadows} onClick={() => toggle('shadows')} title="Shadows (one extra pass per frame)">
          Shadows
        </button>
        {onToggleLabels && (
          <button type="button" aria-pressed={labels} onClick={onToggleLabels} title="Name every object in the view (key L)">
            Labels
          </button>
        )}
        {onToggleFollow && (
          <button type="button" aria-pressed={follow} onClick={onToggleFollow} title="Keep the robot in the middle of the view (key F)">
            Follow robot
          </button>
        )}
        <button type="button" onClick={() => worldRef.current?.resetCamera()} title="Frame the whole workspace again">
          Reset view
        </button>
        <button type="button" aria-pressed={prefs.fps} onClick={() => setPrefs({ fps: !prefs.fps })} title="Show the frame rate">
          FPS
        </button>
        <select
          aria-label="Rendering quality"
          title="Rendering quality: resolution, antialiasing and shadows (lower is faster)"
          value={prefs.quality}
          onChange={(e) => setPrefs({ quality: e.target.value as Quality })}
        >
          {QUALITIES.map((q) => (
            <option key={q} value={q}>
              {q} quality
            </option>
          ))}
        </select>
      </div>
      {prefs.fps && <FpsReadout fps={readFps} />}
      {speech && <SpeechBubble speech={speech} at={speechAt} />}
      {overlay}
      {opts.inset && cam && (
        <div className="view-inset" aria-label="Robot camera image">
          <canvas ref={insetCallback} width={INSET_W} height={INSET_H} />
          <span>
            Robot camera ({cam.mount}, {cam.fovDeg}°, {cam.range} m)
            {insetNote && <em data-testid="inset-note">: {insetNote}</em>}
          </span>
        </div>
      )}
      {hover && (
        <div className="view-label" style={{ left: hover.x + 14, top: hover.y + 10 }} role="tooltip">
          {hover.label}
        </div>
      )}
      {meta && (
        <div className="view-caption">
          <strong>{meta.title}</strong> · {meta.robot.title}
          {captionNote ? (
            <span className="view-caption-wait"> · {captionNote}</span>
          ) : (
            highlight.length > 0 && <span className="view-caption-hl"> · acting on {highlight.join(', ')}</span>
          )}
        </div>
      )}
      {(lost || initError) && (
        <div className="view-message overlay" role="alert">
          <h2>{lost ? 'The 3D view lost its GPU context' : '3D view failed to start'}</h2>
          <p>{lost ? 'Reload the page to draw the scene again; the simulation keeps running.' : initError}</p>
        </div>
      )}
    </div>
  );
}
