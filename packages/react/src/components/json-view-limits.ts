/** How much of a value `JsonView` draws before "Show all": a streaming 1 MB input stays one cheap frame. */
export const JSON_VIEW_LIMITS = { lines: 400, chars: 40_000 } as const;
