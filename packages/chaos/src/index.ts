export const PLACEHOLDER_chaos = 1;
