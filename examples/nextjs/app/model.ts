/** The model the page asks for, and the only one the proxy lets through. */
export const MODEL = process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-5';
