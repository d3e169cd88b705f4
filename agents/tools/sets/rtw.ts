// The tools of the Robotic Tool Workflows paper (000 §II.C), one group per
// demonstrator:
// - TORO (basic): static information about the robot and parameterised motions
//   whose ranges are validated at run time (TakeAStep's bounded x, y, yaw).
// - MAYA (hierarchical): information tools that hold regardless of the world, and
//   task tools generated from the world's current state (open_<x> only while a
//   closed x is seen, pick_<x> per visible pickable x).
// - AIMM (world model): guarded query templates over the world-model tree, the
//   paper's Cypher templates applied to our scene graph; parameters are checked
//   against the graph's schema (its node types and attributes), never free-form.
export * from './rtw-toro';
export * from './rtw-maya';
export * from './rtw-aimm';
