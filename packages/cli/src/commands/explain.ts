import type { Command } from 'commander';
import { resolveAgent } from '../agent.js';
import type { AgentOptionValues } from '../agent-options.js';
import { addAgentOptions } from '../agent-options.js';
import type { CliContext } from '../context.js';
import { parseHttpUrl } from '../http-url.js';
import { timeoutOption } from '../timeout-option.js';
import { explainJson, formatExplain } from '../output/format-explain.js';
import { writeJson } from '../output/write-json.js';
import { collectVerdicts, setVerdictsExit } from '../verdicts.js';

interface ExplainOptionValues extends AgentOptionValues {
  readonly robots?: string;
  readonly json?: boolean;
  readonly timeout: number;
}

/**
 * Registers `polite explain <url> --agent <token> [--purpose] [--robots] [--user-agent] [--json]`:
 * the whole chain from robots.txt to verdict. Exit code 0 when allowed, 1 when denied.
 *
 * @example
 * ```ts
 * registerExplainCommand(program, context);
 * await program.parseAsync(['explain', 'https://example.com/a', '--agent', 'ExampleBot'], { from: 'user' });
 * ```
 */
export function registerExplainCommand(program: Command, context: CliContext): void {
  const command = program
    .command('explain')
    .description(
      'explain a verdict: how robots.txt was obtained, which group and which line decided',
    )
    .argument('<url>', 'an absolute http(s) URL');
  addAgentOptions(command);
  command
    .option('-r, --robots <file|url>', 'use this robots.txt instead of fetching the origin’s')
    .addOption(timeoutOption())
    .option('--json', 'print a JSON document instead of text')
    .action(async (arg: string, options: ExplainOptionValues) => {
      const agent = resolveAgent(options);
      const url = parseHttpUrl(arg, 'URL');
      const results = await collectVerdicts(
        [url],
        agent,
        options,
        context,
        () => `waiting for ${url.origin}/robots.txt`,
      );
      const verdict = results[0]!;
      if (options.json === true) writeJson(context.stdout, explainJson(agent, verdict));
      else context.stdout.write(formatExplain(agent, verdict, context.out));
      setVerdictsExit(context, results);
    });
}
