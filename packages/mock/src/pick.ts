/**
 * What you type matters: a prompt that names no fixture gets the recorded answer whose topic
 * it shares (weather → the weather tool, a haiku → the fallback haiku, "summarize" → the
 * answer cut off at max_tokens), so a demo chat answers something that fits.
 */
import type { FixtureName } from './catalog-data.js';

/**
 * Topic words per fixture, most specific first (a tie goes to the earlier entry). Only
 * fixtures that read as an answer are here: the fault fixtures (bad data, a stream error, a
 * truncated tool call) and the 4 MB tool input are chosen by name or scenario, never by
 * accident.
 */
const TOPICS: ReadonlyArray<readonly [FixtureName, RegExp]> = [
  [
    'refusal',
    /\b(sarin|nerve agents?|bioweapons?|chemical weapons?|explosives?|bombs?|malware|ransomware)\b/g,
  ],
  ['parallel-tool-calls', /\b(weather|forecast|temperature)\b[^?.!]*\b(and|&|both|vs\.?)\b/g],
  ['spec-web-search', /\b(search|news|latest|today|look(ing)? up|web|online)\b/g],
  ['spec-tool-use', /\b(weather|forecast|temperature|rain(ing)?|sunny|umbrella|snow(ing)?)\b/g],
  ['pause-turn', /\b(release notes?|changelog|what changed|node(\.?js)?\s*\d+)\b/g],
  ['mcp-tool-use', /\b(linear|open issues|tickets?|jira|mcp|bug tracker)\b/g],
  ['tool-no-input', /\b(what time|time is it|clock|date today)\b/g],
  ['redacted-thinking', /\b(primes?|mersenne)\b/g],
  [
    'spec-thinking',
    /\b(think|reason(ing)?|prove|proof|gcd|greatest common divisor|divisors?|solve|puzzle|step by step|math)\b/g,
  ],
  ['fallback-block', /\b(haiku|poems?|poetry|verses?|sonnet|limerick)\b/g],
  ['stop-sequence', /\b(transcript|support chat|role-?play|dialogue)\b/g],
  ['max-tokens', /\b(summari[sz]e|summary|history|revolution|overview|timeline)\b/g],
  [
    'long-markdown',
    /\b(guide|tutorial|thorough|in[- ]depth|detailed|essay|article|markdown|code examples?|long (answer|explanation|response)|streaming|chat ui)\b/g,
  ],
  [
    'text-pings',
    /\b(javascript|typescript|const|let|var|variables?|code|programming|functions?)\b/g,
  ],
  ['spec-basic-text', /^\s*(hi|hello|hey|good (morning|afternoon|evening))\b/g],
];

/** The fixture whose topic words `prompt` uses most, or undefined when none fits. */
export function fixtureForPrompt(prompt: string): FixtureName | undefined {
  const text = prompt.toLowerCase();
  let best: FixtureName | undefined;
  let bestHits = 0;
  for (const [name, words] of TOPICS) {
    const hits = text.match(words)?.length ?? 0;
    if (hits > bestHits) {
      best = name;
      bestHits = hits;
    }
  }
  return best;
}
