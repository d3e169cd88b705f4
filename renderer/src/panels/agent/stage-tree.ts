// Nests a run's trace items by stage path, in the order they happened: a flow's
// records sit in its stage's group, a nested flow ("planner/executor") in a group
// inside its parent's, and a stage that runs again after another (the planner's
// second round after the critic) opens a new group, so the tree reads as the run did.
export interface Staged {
  stage: string;
}

export interface StageGroup<T extends Staged> {
  /** The full path, "" for the root. */
  stage: string;
  /** The last segment, as shown. */
  name: string;
  parts: Array<{ item: T } | { group: StageGroup<T> }>;
}

function within(parent: string, stage: string): boolean {
  return parent === '' || stage === parent || stage.startsWith(`${parent}/`);
}

export function stageTree<T extends Staged>(items: readonly T[]): StageGroup<T> {
  const root: StageGroup<T> = { stage: '', name: '', parts: [] };
  const stack: StageGroup<T>[] = [root];
  for (const item of items) {
    const stage = item.stage;
    while (stack.length > 1 && !within(stack[stack.length - 1]!.stage, stage)) stack.pop();
    let top = stack[stack.length - 1]!;
    while (top.stage !== stage) {
      const rest = top.stage ? stage.slice(top.stage.length + 1) : stage;
      const name = rest.split('/')[0]!;
      const group: StageGroup<T> = { stage: top.stage ? `${top.stage}/${name}` : name, name, parts: [] };
      top.parts.push({ group });
      stack.push(group);
      top = group;
    }
    top.parts.push({ item });
  }
  return root;
}
