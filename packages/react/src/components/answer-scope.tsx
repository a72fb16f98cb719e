import type { BlockState } from '@message-stream/core';
import { createContext, type ReactElement, type ReactNode, useId, useRef } from 'react';
import { type CitationIndex, citationListsOf, indexCitations } from './citation-index.js';
import { isPlainObject, stringOr } from './format.js';

/** An answer's citations, numbered once for all its text blocks, and where its sources list is. */
export interface CitationScope {
  readonly index: CitationIndex;
  /** Prefix of the ids of the sources list's entries: `${idPrefix}${number}`. */
  readonly idPrefix: string;
}

export const CitationScopeContext = createContext<CitationScope | null>(null);

/** Results the API returned inside the answer (`mcp_tool_result`), by the id of their call. */
export type PairedResults = ReadonlyMap<string, BlockState>;

export const PairedResultsContext = createContext<PairedResults | null>(null);

/** Block types whose result arrives as a later block of the same answer. */
const PAIRED_RESULT_TYPES: ReadonlySet<string> = new Set(['mcp_tool_result']);

export interface AnswerScopeProps {
  /** The answer's content blocks (a `LiveMessage`'s `content`). */
  blocks: readonly BlockState[];
  /** The answer's blocks (and its `AnswerSources`). */
  children?: ReactNode;
}

/**
 * Wraps the blocks of one answer so that they work as one: citation markers are numbered the
 * same across all its text blocks (and match `<AnswerSources/>`, which lists them once), and an
 * `mcp_tool_use` shows the `mcp_tool_result` that answers it inside its card, instead of as a
 * block of its own. Without a scope every text block numbers and lists its own sources.
 *
 * Cheap on every delta: the context values are rebuilt only when a citation list or a result
 * block changes, so text blocks stay memoized while the answer streams.
 */
export function AnswerScope({ blocks, children }: AnswerScopeProps): ReactElement {
  const idPrefix = `ms-src${useId().replace(/[^\w-]/g, '')}-`;
  const citations = useStable(citationListsOf(blocks), (lists) => ({
    index: indexCitations(lists),
    idPrefix,
  }));
  const results = useStable(pairingParts(blocks), (parts) => {
    const calls = new Set(parts.filter((part): part is string => typeof part === 'string'));
    const map = new Map<string, BlockState>();
    for (const part of parts) {
      if (typeof part === 'string') continue;
      const id = stringOr((part.block as Record<string, unknown>).tool_use_id);
      if (id && calls.has(id)) map.set(id, part);
    }
    return map as PairedResults;
  });
  return (
    <CitationScopeContext.Provider value={citations}>
      <PairedResultsContext.Provider value={results}>{children}</PairedResultsContext.Provider>
    </CitationScopeContext.Provider>
  );
}

/** The result blocks and the ids of the calls they may answer (strings compare by value). */
function pairingParts(blocks: readonly BlockState[]): Array<BlockState | string> {
  const out: Array<BlockState | string> = [];
  if (!Array.isArray(blocks)) return out;
  for (const block of blocks) {
    const fields: unknown = block?.block;
    if (!isPlainObject(fields)) continue;
    if (PAIRED_RESULT_TYPES.has(String(fields.type))) out.push(block);
    else if (fields.type === 'mcp_tool_use') {
      const id = stringOr(fields.id);
      if (id) out.push(id);
    }
  }
  return out;
}

/**
 * `build(parts)`, recomputed only when `parts` differs from the last call's by some element
 * (compared by identity): the core keeps unchanged objects between deltas.
 */
function useStable<P, T>(parts: readonly P[], build: (parts: readonly P[]) => T): T {
  const last = useRef<{ parts: readonly P[]; value: T } | null>(null);
  const previous = last.current;
  if (
    previous !== null &&
    previous.parts.length === parts.length &&
    previous.parts.every((part, i) => part === parts[i])
  ) {
    return previous.value;
  }
  const value = build(parts);
  last.current = { parts, value };
  return value;
}

/** True when `block` is a result that its call's card shows, inside this scope. */
export function isPairedResult(block: BlockState, results: PairedResults | null): boolean {
  if (results === null || !isPlainObject(block.block)) return false;
  if (!PAIRED_RESULT_TYPES.has(String(block.block.type))) return false;
  const id = stringOr(block.block.tool_use_id);
  return id !== undefined && results.get(id) === block;
}
