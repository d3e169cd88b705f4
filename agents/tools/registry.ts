// The tool registry (paper 004 §3.1): tools registered with their cards,
// discovered by capability, and grouped into the named tool sets the papers use.
// Discovery ranks the cards with BM25 (MiniSearch's BM25+) over Porter-stemmed
// terms, so a need phrased in words ("how much charge is left") finds the tool
// whose card says so.
import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import type { Robot } from '../../robot/robot';
import type { CapabilityDimension, FunctionSchema, Tool, ToolCategory, ToolMode } from './tool';

export interface Discovery {
  tool: Tool;
  /** BM25+ relevance; only comparable within one query. */
  score: number;
  /** The query terms (after stemming) that matched this tool's card. */
  matched: string[];
}

interface CardDoc {
  id: string;
  name: string;
  capability: string;
  whenToUse: string;
  tags: string;
  description: string;
  outputs: string;
}

/** Where a word weighs most: the name and tags are chosen words, the description is prose. */
const BOOST = { name: 2, tags: 1.5, capability: 1.5, whenToUse: 1.2, description: 1, outputs: 0.6 };

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private index: MiniSearch<CardDoc> | undefined;

  constructor(tools: Iterable<Tool> = []) {
    for (const t of tools) this.register(t);
  }

  register(tool: Tool): void {
    const existing = this.tools.get(tool.name);
    if (existing && existing !== tool) throw new Error(`a different tool named "${tool.name}" is already registered`);
    this.tools.set(tool.name, tool);
    this.index = undefined;
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  get size(): number {
    return this.tools.size;
  }

  list(filter: { category?: ToolCategory; dimension?: CapabilityDimension; mode?: ToolMode } = {}): Tool[] {
    return [...this.tools.values()].filter(
      (t) =>
        (!filter.category || t.category === filter.category) &&
        (!filter.dimension || t.card.dimension === filter.dimension) &&
        (!filter.mode || t.card.mode === filter.mode),
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
   * Discovery by capability (paper 004 §3.1, "the agent queries R via ρ"): the
   * tools whose cards best match the words of a need, best first. Terms are
   * stemmed alike on both sides; longer terms also match as prefixes and with a
   * typo, so "reach" finds "reachable" and "batery" finds "battery".
   */
  discover(need: string, limit = 5): Discovery[] {
    if (!tokens(need).length) return [];
    const hits = this.search().search(need, {
      boost: BOOST,
      combineWith: 'OR',
      prefix: (term) => term.length >= 4,
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
    });
    return hits
      .map((h) => ({ tool: this.tools.get(String(h.id))!, score: h.score, matched: h.terms }))
      .sort((a, b) => b.score - a.score || a.tool.name.localeCompare(b.tool.name))
      .slice(0, limit);
  }

  /** What a model receives: OpenAI-style function schemas. */
  schemas(): FunctionSchema[] {
    return this.list().map((t) => t.schema());
  }

  private search(): MiniSearch<CardDoc> {
    if (this.index) return this.index;
    const index = new MiniSearch<CardDoc>({
      fields: ['name', 'capability', 'whenToUse', 'tags', 'description', 'outputs'],
      tokenize: (text) => text.split(/[^a-zA-Z0-9]+/),
      processTerm: (term) => stem(term),
    });
    index.addAll(
      this.list().map((t) => ({
        id: t.name,
        name: t.name.replace(/[_-]+/g, ' '),
        capability: t.card.capability,
        whenToUse: t.card.whenToUse,
        tags: t.card.tags.join(' '),
        description: t.description,
        outputs: t.card.outputs,
      })),
    );
    this.index = index;
    return index;
  }
}

// Words that say nothing about a capability; dropping them keeps "what is the …" from matching every card.
const STOP = new Set(
  (
    'the a an is are of to it its can could i me my we you your what which who how and or in on at be by for with this that these ' +
    'those does do did there from as if so then than into out up any some all please should would will shall just now'
  ).split(' '),
);

function stem(term: string): string[] | null {
  const t = term.toLowerCase();
  if (t.length < 2 || STOP.has(t)) return null;
  // The same stems at index and query time: "charging" and "charge" are both "charg". Porter keeps
  // derivational endings on long words ("reachable" is "reachabl"), so the root goes in too.
  const s = stemmer(t);
  const root = DERIVED.exec(s);
  return root && root[1]!.length >= 3 ? [s, root[1]!] : [s];
}

const DERIVED = /^(.*?)(abl|ibl|ment|ness|ful|less|iti|al)$/;

function tokens(s: string): string[] {
  return s.split(/[^a-zA-Z0-9]+/).flatMap((w) => stem(w) ?? []);
}
