/** Text as plain text for a terminal: each control, format and line-separator character as its `\u` escape. */
export function plainText(text: unknown): string;
/** A line of a program's output as plain text: for a line of its JSON log, its message, continued lines indented. */
export function plainLogLine(line: string): string;
