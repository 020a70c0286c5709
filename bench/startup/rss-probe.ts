// Loaded first by every cold-start server (bench/startup.bench.ts): on SIGUSR2 the server
// writes its resident set size to stderr, so the bench reads it at a moment it chooses.
process.on("SIGUSR2", () => {
  process.stderr.write(`rss ${process.memoryUsage().rss}\n`);
});
