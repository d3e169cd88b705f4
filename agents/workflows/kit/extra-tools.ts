// Tools a conversation adds to its workflow (an external MCP server's, say):
// every flow the workflow opens offers them after its own. A sub-agent's flow
// (ctx.agentTool) keeps its own list; the workflow decides what it delegates.
import type { FlowSpec, Workflow } from '../../runtime/workflow';
import type { Tool } from '../../tools/tool';

function merge(own: readonly Tool[], extra: readonly Tool[]): readonly Tool[] {
  const names = new Set(own.map((t) => t.name));
  return [...own, ...extra.filter((t) => !names.has(t.name))];
}

function addTools(tools: FlowSpec['tools'], extra: readonly Tool[]): FlowSpec['tools'] {
  if (typeof tools !== 'function') return merge(tools, extra);
  return async (iteration, view) => merge(await tools(iteration, view), extra);
}

export function withExtraTools(workflow: Workflow, extra: readonly Tool[]): Workflow {
  if (!extra.length) return workflow;
  return {
    id: workflow.id,
    title: workflow.title,
    description: workflow.description,
    stages: workflow.stages,
    systemPrompt: (robot) => workflow.systemPrompt(robot),
    run: (ctx) => workflow.run({ ...ctx, flow: (spec) => ctx.flow({ ...spec, tools: addTools(spec.tools, extra) }) }),
  };
}
