/**
 * The model's judgment of a check's changed and new pages against the monitor's `goal` (the clients'
 * `MonitorPageJudgment`): run once, as the check closes, through the engine's model (its `llm` settings), each page
 * in a model slot. A page the model could not judge keeps its place with `judgment: null` and the reason in `error`.
 */
import { monitorPageJudgment } from '../codec/monitor-records.js';
import type { ResolvedLlmOptions } from '../llm/llm-options.js';
import type { LlmService } from '../llm/llm-service.js';
import type { ErrorResponse } from '../v2/types.js';
import type { MonitorCheckPage } from './monitor-store.js';

/** What the model reads of a page: its diff when it changed, its markdown when it is new. */
export interface JudgedInput {
  page: MonitorCheckPage;
  text: string;
}

function judgePrompt(goal: string, page: MonitorCheckPage): string {
  const what =
    page.status === 'changed'
      ? 'The page below is the unified diff of the page since the last check (lines starting with - were removed, + added).'
      : 'The page below is new since the last check: all of it was added.';
  return [
    `A monitor watches ${page.url} for this goal: ${goal}`,
    what,
    'Judge whether the change is meaningful for the goal. Set `meaningful`, your `confidence`, a one-sentence ' +
      '`reason`, and list in `meaningfulChanges` each change that matters for the goal (its type, the text before ' +
      'and after, null where there is none, and why it matters); an empty list when none does.',
  ].join('\n');
}

/**
 * Judges each page, a round of the model's `concurrency` at a time, each within its `timeoutMs` (a model that hangs
 * must not hold the check open); a page whose judgment fails gets `judgment: null` and the reason.
 */
export async function judgePages(
  llm: LlmService,
  limits: Pick<ResolvedLlmOptions, 'concurrency' | 'timeoutMs'>,
  goal: string,
  inputs: JudgedInput[],
): Promise<void> {
  for (let start = 0; start < inputs.length; start += limits.concurrency) {
    await Promise.all(
      inputs.slice(start, start + limits.concurrency).map(async ({ page, text }) => {
        try {
          const prompt = judgePrompt(goal, page);
          const signal = AbortSignal.timeout(limits.timeoutMs);
          const { value } = await llm.extract({ markdown: text, schema: monitorPageJudgment, prompt, signal });
          page.judgment = monitorPageJudgment.parse(value);
        } catch (error) {
          page.judgment = null;
          page.error = `The model could not judge this page: ${error instanceof Error ? error.message : String(error)}`;
        }
      }),
    );
  }
}

/** A monitor's goal and whether it judges, as a create or update leaves them. */
export interface JudgeSetting {
  goal: string | undefined;
  judgeEnabled: boolean | undefined;
}

/**
 * Whether the setting can judge: `judgeEnabled: true` needs a goal, and (when the request asks for it) a model;
 * a goal without a model is kept, with a warning that the changes are not judged.
 */
export function judgeProblem(
  llm: LlmService,
  setting: JudgeSetting,
  asked: boolean | undefined,
): { error: ErrorResponse } | { warning?: string } {
  if (asked === true && setting.goal === undefined) {
    const error = '`judgeEnabled: true` judges the changes against a `goal`: give one (what the changes matter for).';
    return { error: { success: false, code: 'BAD_REQUEST', error } };
  }
  if (setting.goal === undefined || setting.judgeEnabled === false || llm.configured) return {};
  if (asked === true) return { error: llm.requireModel('monitor judgment (`judgeEnabled: true`)')! };
  return {
    warning:
      'No language model is configured, so the changes are not judged against the `goal` (every changed page is in ' +
      'the check, without `judgment`): give the engine a model (`llm`, or `serve --model --model-base-url`, or ' +
      'OPENAI_BASE_URL and MODEL_NAME).',
  };
}
