// The belief rule: the Robot a tool sees answers from what the robot
// has perceived, never from the world behind it. The simulated robot's answers
// live in robot/sim/perception.ts and robot/sim/sim-robot.ts; these imports
// reach ground truth and are refused there. SimControl (hosts, scorer) and the
// AIMM world model (paper 000 grants it the truth) may use them.
export const TRUTH_MESSAGE =
  'ground truth: the robot answers from its belief (sim/perception/believed.ts, observe.ts), not from the world. Only SimControl, the scorer and the AIMM world model read the truth.';

export const truthRestrictions = {
  patterns: [
    { group: ['**/sim/world/location', '**/sim/perception/geo'], message: TRUTH_MESSAGE },
    { group: ['**/sim/perception/snapshot'], importNames: ['worldFacts'], message: TRUTH_MESSAGE },
    {
      group: ['**/sim/perception/distance'],
      importNames: ['distanceToTarget', 'distanceBetween', 'centreDistance'],
      message: TRUTH_MESSAGE,
    },
  ],
};

/** Files that speak for the robot to tools. */
export const ROBOT_VOICE = ['robot/sim/sim-robot.ts', 'robot/sim/perception.ts'];

/**
 * The truth audit's checker (eval/audit/check*.ts, truth.ts) judges the tools, so it
 * reads the world itself: nothing of the simulator's location, perception or
 * skills code, nor of the tools (their types aside), which a checker sharing
 * them would repeat the mistakes of.
 */
export const CHECKER = ['eval/audit/check.ts', 'eval/audit/check-*.ts', 'eval/audit/truth.ts'];

export const CHECKER_MESSAGE =
  "the audit's checker reads the Rapier world itself (eval/audit/truth.ts); it does not use the simulator's location, perception or skill code, nor the tools, which it judges.";

export const checkerRestrictions = {
  patterns: [
    {
      group: ['**/sim/world/location', '**/sim/world/place', '**/sim/perception/*', '**/sim/skills/*', '**/sim/body/*', '**/robot/sim/*'],
      message: CHECKER_MESSAGE,
    },
    { group: ['**/agents/tools/*', '!**/agents/tools/tool'], message: CHECKER_MESSAGE },
  ],
};
