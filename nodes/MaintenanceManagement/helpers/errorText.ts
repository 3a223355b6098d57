/**
 * Items as n8n counts them: the first input item is item 0, as in the `[item 0]` n8n puts after an
 * error's message, in `pairedItem` and in `$input.all()[0]`, so the node's words and n8n's agree.
 */
export const itemNumber = (itemIndex: number): number => itemIndex;

/**
 * Line breaks in an error's description: n8n's error panel renders the description as HTML, so
 * each problem stands on its own line there.
 */
export const LINE_BREAK = '<br>';
