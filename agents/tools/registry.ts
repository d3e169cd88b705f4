// The tool registry (paper 004 §3.1): tools registered with their cards,
// discovered by capability, and grouped into the named tool sets the papers use.
import type { Robot } from '../../robot/robot';
import type { CapabilityDimension, FunctionSchema, Tool, ToolCategory } from './tool';

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  constructor(tools: Iterable<Tool> = []) {
    for (const t of tools) this.register(t);
  }

  register(tool: Tool): void {
    const existing = this.tools.get(tool.name);
    if (existing && existing !== tool) throw new Error(`a different tool named "${tool.name}" is already registered`);
    this.tools.set(tool.name, tool);
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  list(filter: { category?: ToolCategory; dimension?: CapabilityDimension } = {}): Tool[] {
    return [...this.tools.values()].filter(
      (t) => (!filter.category || t.category === filter.category) && (!filter.dimension || t.card.dimension === filter.dimension),
    );
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** Tools whose declared robot capabilities the robot has. */
  availableFor(robot: Robot): ToolRegistry {
    return new ToolRegistry(this.list().filter((t) => t.card.requires.every((c) => robot.has(c))));
  }

  /**
   * Discovery by capability: rank tools by how well their card matches the words
   * of a need ("is the bowl reachable" -> dist_to_target). Simple term overlap over
   * name, capability, when-to-use and tags: deterministic and explainable.
   */
  discover(need: string, limit = 5): Array<{ tool: Tool; score: number }> {
    const terms = tokens(need);
    if (!terms.length) return [];
    const scored = this.list().map((tool) => {
      const text = tokens(`${tool.name.replace(/_/g, ' ')} ${tool.card.capability} ${tool.card.whenToUse} ${tool.card.tags.join(' ')}`);
      const bag = new Set(text);
      const score =
        terms.reduce((s, t) => s + (bag.has(t) ? 1 : [...bag].some((b) => b.startsWith(t) || t.startsWith(b)) ? 0.5 : 0), 0) / terms.length;
      return { tool, score };
    });
    return scored
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score || a.tool.name.localeCompare(b.tool.name))
      .slice(0, limit);
  }

  /** What a model receives: OpenAI-style function schemas. */
  schemas(): FunctionSchema[] {
    return this.list().map((t) => t.schema());
  }
}

const STOP = new Set([
  'the',
  'a',
  'an',
  'is',
  'of',
  'to',
  'it',
  'can',
  'i',
  'me',
  'what',
  'which',
  'and',
  'or',
  'in',
  'on',
  'be',
  'for',
  'with',
  'this',
  'that',
  'does',
  'do',
  'there',
]);

function tokens(s: string): string[] {
  return s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 1 && !STOP.has(t))
    .map((t) => t.replace(/(ing|ed|es|s)$/, ''));
}
