export const TRUTH_MESSAGE: string;
export const truthRestrictions: {
  patterns: Array<{ group: string[]; importNames?: string[]; message: string }>;
};
export const ROBOT_VOICE: string[];
