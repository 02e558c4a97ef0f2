/** Version-control hosting tokens: GitHub (all five prefixes and fine-grained PATs) and GitLab. */
export const VCS_TOKEN_PATTERNS: readonly string[] = [
  'gh[pousr]_[A-Za-z0-9]{20,}',
  'github_pat_\\w{20,}',
  'gl(?:pat|dt|rt|ptt|cbt|ft|imt|oas|soat|agent)-[\\w-]{20,}',
];
