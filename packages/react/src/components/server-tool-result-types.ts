/** The result block types `ServerToolResultView` reads. */
export const SERVER_TOOL_RESULT_TYPES: ReadonlySet<string> = new Set([
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
]);
