import type { JsonSyntaxError } from '@message-stream/core';
import type { ReactElement } from 'react';
import { toJson, toText } from './format.js';
import { JsonViewBody } from './json-view-body.js';
import { ToolResult } from './tool-result.js';
import type { ToolResultView } from './tool-status.js';

export interface ToolCallPanelProps {
  name: string;
  id: string | undefined;
  input: unknown;
  /** The exact JSON text received, when the block kept it. */
  raw: string | undefined;
  error: JsonSyntaxError | null | undefined;
  streaming: boolean;
  result: ToolResultView | null | undefined;
}

/** The open tool card's body: a malformed-input warning, the input, the result and the id. */
export function ToolCallPanel({
  name,
  id,
  input,
  raw,
  error,
  streaming,
  result,
}: ToolCallPanelProps): ReactElement {
  return (
    <>
      {error ? (
        <p className="ms-tool__warning">
          <strong>Warning:</strong> the input is not valid JSON ({toText(error.message)}, at
          character {toText(error.position)}). The last valid part is shown.
        </p>
      ) : null}
      <JsonViewBody
        className="ms-tool__input"
        value={input}
        // Without the text received, Raw is the value as compact JSON, built when shown.
        raw={raw ?? toJson(input, 0)}
        busy={streaming}
        label={`${name} input`}
        emptyText={streaming ? 'Waiting for input…' : 'No input'}
      />
      {result ? <ToolResult result={result} /> : null}
      {/* For whoever traces the call in logs: last, under what a reader came for. */}
      {id ? (
        <p className="ms-tool__meta">
          ID <code className="ms-tool__id">{id}</code>
        </p>
      ) : null}
    </>
  );
}
