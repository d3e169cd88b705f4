// Pick and place, and the helpers other skills share, under one name for the
// simulated robot. The code lives in pick.ts, place.ts, grasp-plan.ts and common.ts.
export { armPreconditions, displayName, interruptOutcome, observationProblem } from './common';
export { planGrasp } from './grasp-plan';
export { pick } from './pick';
export { type PlaceTarget, place } from './place';
