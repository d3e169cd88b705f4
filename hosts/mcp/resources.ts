// Each robot's resources: its info and tools, the semantic snapshot its
// perception reports (paper 003 §4), its recent events, and its camera (a PNG
// for simulated robots, with what perception reports beside it).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { perceivedLine, takePicture } from './camera';
import type { FleetRobot } from './fleet';

export function resourceUri(robot: string, what: 'info' | 'snapshot' | 'camera' | 'events'): string {
  return `skillbridge://${robot}/${what}`;
}

async function snapshotText(r: FleetRobot): Promise<string> {
  const robot = r.robot;
  const lines: string[] = [`# ${r.name}: ${robot.info.name} in ${robot.info.scene.title}`, `time: ${(await robot.time()).toFixed(1)} s`];
  if (robot.has('battery')) {
    const b = await robot.battery();
    lines.push(`battery: ${b.percent.toFixed(0)}% (${b.level}${b.charging ? ', charging' : ''}${b.docked ? ', docked' : ''})`);
  }
  if (robot.has('perception')) {
    lines.push(`holding: ${(await robot.perception.holding()) ?? 'nothing'}`);
    lines.push('', 'facts (what the robot perceives):', ...(await robot.perception.snapshot()).map((f) => `- ${f}`));
  } else {
    lines.push('this robot reports no semantic snapshot (no perception capability)');
  }
  return lines.join('\n');
}

export function registerRobotResources(server: McpServer, r: FleetRobot, prefixed: boolean): void {
  const label = prefixed ? `${r.name}: ` : '';
  const text = (uri: string, mimeType: string, body: string): ReadResourceResult => ({ contents: [{ uri, mimeType, text: body }] });

  const info = resourceUri(r.name, 'info');
  server.registerResource(
    `${r.name}-info`,
    info,
    { title: `${label}robot info`, description: "The robot's description, capabilities, places and tools.", mimeType: 'application/json' },
    () =>
      text(
        info,
        'application/json',
        JSON.stringify(
          {
            name: r.name,
            info: r.robot.info,
            toolSet: r.set,
            tools: r.tools.map((t) => ({ name: r.toolName(t), category: t.category })),
          },
          null,
          2,
        ),
      ),
  );

  const snapshot = resourceUri(r.name, 'snapshot');
  server.registerResource(
    `${r.name}-snapshot`,
    snapshot,
    {
      title: `${label}semantic snapshot`,
      description: 'What the robot perceives now, as facts such as on(lemon_1, table_1); its battery and what it holds.',
      mimeType: 'text/plain',
    },
    async () => text(snapshot, 'text/plain', await snapshotText(r)),
  );

  const events = resourceUri(r.name, 'events');
  server.registerResource(
    `${r.name}-events`,
    events,
    {
      title: `${label}recent events`,
      description:
        'The last 50 things that happened to the robot (an e-stop, a person speaking, an object dropped). New events also arrive as log messages.',
      mimeType: 'application/json',
    },
    async () => text(events, 'application/json', JSON.stringify((await r.robot.events.since(0)).slice(-50), null, 2)),
  );

  const camera = resourceUri(r.name, 'camera');
  const sim = r.sim;
  server.registerResource(
    `${r.name}-camera`,
    camera,
    {
      title: `${label}camera`,
      description: sim
        ? "A picture from the robot's camera (PNG, a flat-shaded rendering of the simulated scene) and what its perception reports in view."
        : 'What the robot perception reports in view (this source gives no camera image).',
      mimeType: sim ? 'image/png' : 'text/plain',
    },
    async () => {
      const seen = `${await perceivedLine(r.robot)}.`;
      if (!sim) return text(camera, 'text/plain', `No camera image from this robot source; ${seen}`);
      const p = takePicture(sim);
      return {
        contents: [
          { uri: camera, mimeType: p.mimeType, blob: p.data },
          { uri: camera, mimeType: 'text/plain', text: `${p.width}×${p.height} at t=${p.time.toFixed(1)} s; ${seen}` },
        ],
      };
    },
  );
}
