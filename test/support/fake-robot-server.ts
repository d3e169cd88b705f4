// A tiny robot HTTP API server that misbehaves on purpose: it answers with
// garbage, answers slowly, or drops the connection mid-skill, so the `http`
// robot source's faults can be tested without a real robot.
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeBehaviour = (req: IncomingMessage, res: ServerResponse, path: string) => void;

export interface FakeRobotServer {
  url: string;
  /** Requests seen, "METHOD /path". */
  seen: string[];
  close(): Promise<void>;
}

/** A valid info answer for a fixed arm, to start from. */
export function fakeInfo(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    protocol: 'skillbridge-robot/1',
    relations: ['on', 'in'],
    info: {
      id: 'fake',
      name: 'Fake arm',
      kind: 'fixed_arm',
      description: 'a test double',
      capabilities: ['arm', 'perception', 'events'],
      scene: { id: 'fake/scene', title: 'Fake', notes: [], userInfo: [], toolSet: 'alrm' },
      arm: { reachM: 0.6, payloadKg: 0.25, gripperOpeningM: 0.08, postures: ['home'] },
      places: [],
      referencePositions: [],
      batteryThresholds: { low: 20, critical: 5 },
      ...overrides,
    },
  };
}

export async function startFakeRobotServer(behave: FakeBehaviour): Promise<FakeRobotServer> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    seen.push(`${req.method} ${path}`);
    req.resume();
    behave(req, res, path);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
