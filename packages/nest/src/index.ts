export const PLACEHOLDER_nest = 1;
