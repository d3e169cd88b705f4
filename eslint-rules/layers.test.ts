import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import layers from './layers.js';

const root = path.resolve(import.meta.dirname, '..');

function lint(relFile: string, code: string): string[] {
  const linter = new Linter({ cwd: root });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts', '**/*.tsx'],
        languageOptions: { parser: tseslint.parser },
        plugins: { layers },
        rules: { 'layers/direction': 'error' },
      },
    ],
    path.join(root, relFile),
  );
  return messages.map((m) => m.message);
}

describe('layers/direction lint rule', () => {
  it('lets a layer import itself and the layers below it', () => {
    expect(lint('sim/world/sim-world.ts', "import { x } from '../../scenes/schema';")).toEqual([]);
    expect(lint('robot/sim/sim-robot.ts', "import { SimWorld } from '../../sim/world/sim-world';")).toEqual([]);
    expect(lint('hosts/cli/main.ts', "import { x } from '../../agents/tools/registry';")).toEqual([]);
  });

  it('rejects an upward import and names the allowed layers', () => {
    const [msg] = lint('sim/world/sim-world.ts', "import { Tool } from '../../agents/tools/tool';");
    expect(msg).toContain("'sim' may not import from 'agents/tools'");
    expect(msg).toContain('sim may import sim, scenes');
  });

  it('keeps tools and workflows off the simulator: only robot/sim may import sim/', () => {
    expect(lint('agents/tools/raider.ts', "import { SimWorld } from '../../sim/world/sim-world';")[0]).toContain(
      "'agents/tools' may not import from 'sim'",
    );
  });

  it('keeps the renderer on the contract only', () => {
    expect(lint('renderer/src/app.tsx', "import { z } from '../../contract/api';")).toEqual([]);
    expect(lint('renderer/src/app.tsx', "import { pick } from '../../sim/skills/pick';")[0]).toContain(
      "'renderer' may not import from 'sim'",
    );
  });

  it('restricts packages to the layer that owns them', () => {
    expect(lint('agents/tools/x.ts', "import RAPIER from '@dimforge/rapier3d-compat';")[0]).toContain(
      "may not import the package '@dimforge/rapier3d-compat'",
    );
    expect(lint('sim/x.ts', "import { app } from 'electron';")[0]).toContain("package 'electron'");
    expect(lint('sim/x.ts', "import RAPIER from '@dimforge/rapier3d-compat';")).toEqual([]);
    expect(lint('hosts/mcp/server.ts', "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';")).toEqual([]);
    expect(lint('agents/tools/mcp/client.ts', "import { Client } from '@modelcontextprotocol/sdk/client/index.js';")).toEqual([]);
    expect(lint('agents/runtime/x.ts', "import { Client } from '@modelcontextprotocol/sdk/client/index.js';")[0]).toContain(
      '@modelcontextprotocol',
    );
    expect(lint('hosts/foxglove/mcap.ts', "import { McapWriter } from '@mcap/core';")).toEqual([]);
    expect(lint('hosts/mcp/x.ts', "import { McapWriter } from '@mcap/core';")[0]).toContain("package '@mcap/core'");
  });

  it('lets colocated tests use shared fixtures from test/', () => {
    expect(lint('sim/skills/pick.test.ts', "import { fixture } from '../../test/fixtures/layouts';")).toEqual([]);
    expect(lint('sim/skills/pick.ts', "import { fixture } from '../../test/fixtures/layouts';")[0]).toContain("may not import from 'test'");
  });

  it('knows the order inside agents, hosts and the robot: models → tools → sandbox → runtime → workflows', () => {
    const up = (file: string, spec: string) => lint(file, `import { x } from '${spec}';`)[0] ?? '';
    expect(up('agents/models/spec.ts', '../runtime/flow')).toContain("'agents/models' may not import from 'agents/runtime'");
    expect(up('agents/tools/registry.ts', '../workflows/kit/loop')).toContain("'agents/tools' may not import from 'agents/workflows'");
    expect(up('agents/runtime/flow/run-flow.ts', '../../workflows/index')).toContain(
      "'agents/runtime' may not import from 'agents/workflows'",
    );
    expect(up('agents/sandbox/sandbox.ts', '../tools/tool')).toContain("'agents/sandbox' may not import from 'agents/tools'");
    expect(up('agents/workflows/rtw/basic.ts', '../../../robot/sim/open')).toContain("may not import from 'robot/sim'");
    expect(up('agents/workflows/rtw/basic.ts', '../../../robot/sources')).toContain("may not import from 'robot/sources'");
    expect(up('agents/conversation.ts', '../robot/sources')).toBe('');
    expect(up('hosts/service/app-service.ts', '../cli/main')).toContain("'hosts/service' may not import from 'hosts/cli'");
    expect(up('hosts/service/app-service.ts', '../bench/sim-bench')).toContain("'hosts/service' may not import from 'hosts/bench'");
    expect(up('hosts/cli/main.ts', '../web/server')).toBe('');
    expect(up('hosts/cli/commands/mcp.ts', '../../mcp/server')).toBe('');
    expect(up('hosts/mcp/server.ts', '../../agents/tools/tool')).toBe('');
    expect(up('hosts/mcp/server.ts', '../foxglove/live')).toBe('');
    expect(up('hosts/mcp/server.ts', '../cli/args')).toContain("'hosts/mcp' may not import from 'hosts/cli'");
    expect(up('hosts/foxglove/live.ts', '../mcp/server')).toContain("'hosts/foxglove' may not import from 'hosts/mcp'");
    expect(up('hosts/service/session.ts', '../mcp/server')).toContain("'hosts/service' may not import from 'hosts/mcp'");
    expect(up('hosts/cli/commands/robot-api.ts', '../../robot-api/server')).toBe('');
    expect(up('hosts/robot-api/server.ts', '../../agents/runtime/safety')).toBe('');
    expect(up('hosts/robot-api/server.ts', '../cli/main')).toContain("'hosts/robot-api' may not import from 'hosts/cli'");
    expect(up('hosts/robot-api/server.ts', '../service/session')).toContain("'hosts/robot-api' may not import from 'hosts/service'");
    expect(up('electron/main/index.ts', '../../sim/world/sim-world')).toContain("'electron/main' may not import from 'sim'");
    expect(up('robot/robot.ts', '../sim/world/sim-world')).toContain("'robot' may not import from 'sim'");
    expect(up('sim/world/sim-world.ts', '../../robot/robot')).toContain("'sim' may not import from 'robot'");
    // A folder import belongs to the folder's layer.
    expect(up('agents/tools/x.ts', '../workflows')).toContain("'agents/tools' may not import from 'agents/workflows'");
  });

  it('keeps the results database and reports on plain records: no agents, robot or sqlite elsewhere', () => {
    expect(lint('eval/report/html.ts', "import { openResults } from '../results/store';")).toEqual([]);
    expect(lint('eval/results/store.ts', "import { Tool } from '../../agents/tools/tool';")[0]).toContain(
      "'eval/results' may not import from 'agents/tools'",
    );
    expect(lint('eval/report/html.ts', "import { Robot } from '../../robot/robot';")[0]).toContain(
      "'eval/report' may not import from 'robot'",
    );
    expect(lint('eval/suites/alrm.ts', "import { Tool } from '../../agents/tools/tool';")).toEqual([]);
    expect(lint('hosts/cli/commands/report.ts', "import { openResults } from '../../../eval/results/store';")).toEqual([]);
    expect(lint('agents/x.ts', "import { Database } from 'node-sqlite3-wasm';")[0]).toContain("package 'node-sqlite3-wasm'");
  });

  it('checks re-exports and dynamic imports too', () => {
    expect(lint('scenes/index.ts', "export * from '../sim/world';")[0]).toContain("'scenes' may not import");
    expect(lint('scenes/index.ts', "const m = await import('../agents/tools/x');")[0]).toContain("'scenes' may not");
  });
});
