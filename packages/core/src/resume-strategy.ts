/**
 * Which way to resume a model's interrupted answer: an assistant prefill (Claude 4.5 and
 * earlier) or a user message asking to continue (4.6 and later, and unknown models).
 */

export type ResumeStrategy = 'prefill' | 'user-message';

export interface ClaudeVersion {
  readonly major: number;
  readonly minor: number;
}

/**
 * The Claude version a model id names, or null. Understands both naming schemes
 * (`claude-3-5-sonnet-…`, `claude-sonnet-4-5-…`), dotted versions (`claude-sonnet-4.5`),
 * gateway and cloud prefixes (`anthropic/…`, `us.anthropic.claude-…`) and suffixes (an
 * 8-digit date, `@date`, `-v1:0`): a date is never read as a minor version.
 */
export function claudeVersion(model: string): ClaudeVersion | null {
  if (typeof model !== 'string') return null;
  const lower = model.toLowerCase();
  const at = lower.lastIndexOf('claude');
  if (at === -1) return null;
  const tokens = lower
    .slice(at + 'claude'.length)
    .split(/[^a-z0-9.]+/)
    .filter((token) => token !== '');
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    const dotted = /^(\d{1,2})\.(\d{1,2})$/.exec(token);
    if (dotted) return { major: Number(dotted[1]), minor: Number(dotted[2]) };
    if (/^\d{1,2}$/.test(token)) {
      const next = tokens[i + 1];
      const minor = next !== undefined && /^\d{1,2}$/.test(next) ? Number(next) : 0;
      return { major: Number(token), minor };
    }
    // A longer number is a date: the id names no version before it.
    if (/^\d+$/.test(token)) return null;
  }
  return null;
}

export const strategyForVersion = (version: ClaudeVersion | null): ResumeStrategy =>
  version !== null && (version.major < 4 || (version.major === 4 && version.minor <= 5))
    ? 'prefill'
    : 'user-message';

/**
 * Which strategy a model needs: Claude 4.5 and earlier → `'prefill'`; 4.6 and later, and
 * unknown models → `'user-message'` (it works on every model; a prefill fails on those that
 * do not accept one).
 */
export function resumeStrategyFor(model: string): ResumeStrategy {
  return strategyForVersion(claudeVersion(model));
}
