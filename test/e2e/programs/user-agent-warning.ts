/**
 * Makes policies with the User-Agents given as JSON in argv[2] (in order) and prints, as one
 * JSON line, every process warning raised meanwhile: for user-agent-warning.test.ts, which
 * needs a fresh process (the warning is raised once per process).
 */
const warnings: { name: string; code: string | undefined; message: string }[] = [];
process.removeAllListeners('warning');
process.on('warning', (warning) =>
  warnings.push({
    name: warning.name,
    code: (warning as { code?: string }).code,
    message: warning.message,
  }),
);
const agents = JSON.parse(process.argv[2] ?? '[]') as string[];
// The package by its name: tsx resolves it to the sources through the repository's tsconfig
// `paths`, as vitest's alias does.
const { createPoliteFetch, createRobotsPolicy, UA_NO_URL_WARNING } =
  await import('@polite-crawler/fetch');
for (const [i, userAgent] of agents.entries()) {
  const made = i % 2 === 0 ? createRobotsPolicy({ userAgent }) : createPoliteFetch({ userAgent });
  await made.close();
}
// Warnings are emitted on the next tick.
await new Promise((resolve) => setImmediate(resolve));
console.log(JSON.stringify({ code: UA_NO_URL_WARNING, warnings }));
