/** Issues for the query tests: deterministic (a small LCG), with ties, arrays, nesting and missing fields. */
export interface Issue {
  id: number;
  title: string;
  state: "open" | "closed";
  labels: string[];
  comments: number;
  author: { login: string; team?: string };
  createdAt: string;
  points?: number;
}

export const LABELS = ["bug", "ui", "perf", "docs", "security"] as const;
const WORDS = ["crash", "Timeout", "slow", "typo", "leak", "timeout on save", "layout", "login"];

export function makeIssues(count: number, seed = 7): Issue[] {
  let state = seed >>> 0;
  const next = (n: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return (state >>> 16) % n;
  };
  return Array.from({ length: count }, (_, i) => {
    const labels = [...new Set(Array.from({ length: next(4) }, () => LABELS[next(LABELS.length)] as string))];
    const issue: Issue = {
      id: i + 1,
      title: `${WORDS[next(WORDS.length)]} in module ${next(40)}`,
      state: next(3) === 0 ? "closed" : "open",
      labels,
      comments: next(21),
      author: next(4) === 0 ? { login: `user${next(7)}`, team: "core" } : { login: `user${next(7)}` },
      createdAt: new Date(Date.UTC(2026, 0, 1) + next(365) * 86_400_000).toISOString(),
    };
    if (next(5) !== 0) issue.points = 1 + next(13);
    return issue;
  });
}
