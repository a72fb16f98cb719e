/**
 * Where the tab's `sessionStorage` keeps a saved conversation's unsent text across a reload
 * (the composer's `saveDraftAs`), by its `persist.name`; removed with the conversation.
 */
export const draftKeyOf = (name: string): string => `message-stream:draft:${name}`;
