/** Text as plain text for a terminal: each control, format and line-separator character as its `\u` escape. */
export function plainText(text: unknown): string;
