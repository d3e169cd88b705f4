// RAIDER's workflows as the listings show them (CLI, app picker): id, title, paper section.
export const RAIDER_INFO = [
  {
    id: 'raider',
    title: 'Check an instruction for issues, then recover (RAIDER)',
    paper: '001 §3, §3.5, §5.2',
    description:
      'Ambiguity or unfeasibility found with grounded perception tools, then a recovery plan as code, each step checked again; asks the person when needed.',
  },
  {
    id: 'raider/qgen-grnd',
    title: 'Check an instruction for issues (RAIDER, full procedure)',
    paper: '001 §3.3',
    description: 'Issue detection only, "Ground, Ask&Answer, Issue"; answers the verdict JSON.',
  },
  {
    id: 'raider/grnd',
    title: 'Check an instruction for issues, no question step (RAIDER ablation)',
    paper: '001 §4.2.2',
    description: 'Issue detection with grounding but no question generation (GRND).',
  },
  {
    id: 'raider/qgen',
    title: 'Check an instruction for issues, no grounding step (RAIDER ablation)',
    paper: '001 §4.2.2',
    description: 'Issue detection with question generation but no grounding (QGEN).',
  },
  {
    id: 'raider/basic',
    title: 'Check an instruction for issues, plain think-act-observe (RAIDER ablation)',
    paper: '001 §4.2.2',
    description: 'Issue detection as a plain ReAct cycle (BASIC).',
  },
  {
    id: 'raider/precond',
    title: 'Check an instruction against fixed preconditions (RAIDER baseline)',
    paper: '001 App. B.1',
    description: 'No model: the precondition checks of Table B.3 on structured queries.',
  },
  {
    id: 'raider/full-scene',
    title: 'Check an instruction from a whole-scene description (RAIDER baseline)',
    paper: '001 App. B.3',
    description: "No tools: the model reads the scene as text from the robot's belief (LLMVisualObs).",
  },
] as const;
